load.v $0.xy 0.xy, mul.v0 $0.xy $0.xyxx $0.xyxx
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L23, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 0 0 0 0
L23:
load.v $0.xy 0.xy, mul.s0 $0.z $0.y $0.y
load.v $0.xy 0.xy, mul.s0 ^s0 $0.x $0.x, add.s1 $0.x ^s0 -$0.z
load.v $1.xy 0.xy, mul.s0 $0.z ^const0.x $1.x, const0 2 0 0 0
load.v $1.xy 0.xy, mul.s0 $0.y $0.z $1.y
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L64, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 1 0 0 0
L64:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L101, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 2 0 0 0
L101:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L138, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 3 0 0 0
L138:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L175, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 4 0 0 0
L175:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L212, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 5 0 0 0
L212:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L249, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 6 0 0 0
L249:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L286, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 7 0 0 0
L286:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L323, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 8 0 0 0
L323:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L360, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 9 0 0 0
L360:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L397, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 10 0 0 0
L397:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L434, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 11 0 0 0
L434:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L471, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 12 0 0 0
L471:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L508, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 13 0 0 0
L508:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L545, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 14 0 0 0
L545:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L582, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 15 0 0 0
L582:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L619, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 16 0 0 0
L619:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L656, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 17 0 0 0
L656:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L693, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 18 0 0 0
L693:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L730, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 19 0 0 0
L730:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L767, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 20 0 0 0
L767:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L804, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 21 0 0 0
L804:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L841, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 22 0 0 0
L841:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L878, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 23 0 0 0
L878:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L915, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 24 0 0 0
L915:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L952, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 25 0 0 0
L952:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L989, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 26 0 0 0
L989:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L1026, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 27 0 0 0
L1026:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L1063, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 28 0 0 0
L1063:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L1100, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 29 0 0 0
L1100:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.zw $0.xxxy $1.xxxy
mul.v0 $0.xy $0.zwzz $0.zwzz
add.s1 $0.x $0.x $0.y
gt.s0 $0.x $0.x ^const0.x, const0 4 0 0 0
branch_eq $0.x ^const0.x L1137, const0 0 0 0 0
mov.s1 $0.x ^const0.x, branch L1162, const0 30 0 0 0
L1137:
mul.s0 $0.x $0.w $0.w
mul.s0 ^s0 $0.z $0.z, add.s1 $0.x ^s0 -$0.x
mul.s0 $1.x ^const0.x $0.z, const0 2 0 0 0
mul.s0 $0.y $1.x $0.w
load.v $1.xy 0.xy, add.v1 $0.xy $0.xyyy $1.xyyy
mul.v0 $0.xy $0.xyxx $0.xyxx
add.s1 $0.x $0.x $0.y
gt.s0 ^s0 $0.x ^const0.x, sel.s1 $0.x ^const0.y ^const0.z, const0 4 31 32 0
L1162:
stop, mul.v0 ^v0 $0.x ^const0.x, mov.v1 $1 ^v0.x, const0 0.03125 0 0 0
