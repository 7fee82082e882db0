L0:
add.s1 $0.x $0.x ^const0.x, const0 1 0 0 0
branch_lt $0.x $0.y L0
stop, sync, load.v ^tex_coord.xy 0.xy, texld 0, mov.v0 $0 ^tex
