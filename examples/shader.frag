#version 450
// A small fragment shader for the README's examples: a texture lookup
// tinted by a uniform colour.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform Tint { vec4 color; } tint;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 frag;

void main() {
    vec4 texel = texture(tex, uv);
    frag = texel.a > 0.5 ? texel * tint.color : vec4(0.0);
}
