#version 450

layout(location = 0) in vec4 color;
layout(location = 0) out vec4 outColor;

float brighten(float x)
{
    return x * 1.5;
}

void main()
{
    vec4 c = color;
    if (c.r > 0.5) {
        c.g = brighten(c.g);
    }
    outColor = c;
}
