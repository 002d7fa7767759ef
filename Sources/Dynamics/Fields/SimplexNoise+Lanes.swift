import Foundation

// SimplexNoise.sample at a point per lane, bit for bit (see FieldLaw+Lanes.swift for how the
// lanes keep the scalar code's bits). The lattice hash runs in `UInt32` lanes, the corners'
// contributions in `Double` lanes; a corner outside a lane's kernel adds nothing to that lane.

extension SimplexNoise {
    /// `sample(_:_:_:cosine:sine:seed:)` at the points (`x[i]`, `y[i]`, `z`) of the lanes.
    @inline(__always)
    static func sample(
        _ x: FieldLanes, _ y: FieldLanes, _ z: Double, cosine: Double, sine: Double,
        seed: UInt32
    ) -> (value: FieldLanes, dx: FieldLanes, dy: FieldLanes) {
        let zero = FieldLanes(repeating: 0)
        let limit = FieldLanes(repeating: coordinateLimit)
        // Lanes outside the lattice answer zero; they are computed at the origin so that no
        // conversion below sees a value it cannot hold.
        let inside = (laneMagnitude(x) .< limit) .& (laneMagnitude(y) .< limit)
        guard abs(z) < coordinateLimit, any(inside) else { return (zero, zero, zero) }
        let x = x.replacing(with: zero, where: .!inside), y = y.replacing(with: zero, where: .!inside)
        let z = FieldLanes(repeating: z)
        let f3 = 1.0 / 3.0, g3 = 1.0 / 6.0
        let s = (x + y + z) * f3
        let fi = floorLanes(x + s), fj = floorLanes(y + s), fk = floorLanes(z + s)
        let t = (fi + fj + fk) * g3
        let x0 = x - (fi - t), y0 = y - (fj - t), z0 = z - (fk - t)
        let i = lattice(fi), j = lattice(fj), k = lattice(fk)

        let xy = x0 .>= y0, xz = x0 .>= z0, yz = y0 .>= z0
        let i1 = xy .& xz, j1 = .!xy .& yz, k1 = .!xz .& .!yz
        let i2 = xy .| xz, j2 = .!xy .| yz, k2 = .!xz .| .!yz
        let x1 = x0 - unit(i1) + g3, y1 = y0 - unit(j1) + g3, z1 = z0 - unit(k1) + g3
        let x2 = x0 - unit(i2) + 2 * g3, y2 = y0 - unit(j2) + 2 * g3, z2 = z0 - unit(k2) + 2 * g3
        let x3 = x0 - 1 + 3 * g3, y3 = y0 - 1 + 3 * g3, z3 = z0 - 1 + 3 * g3

        var sum = LaneSum()
        corner(x0, y0, z0, hash(i, j, k, seed), cosine, sine, &sum)
        corner(x1, y1, z1, hash(i &+ step(i1), j &+ step(j1), k &+ step(k1), seed), cosine, sine, &sum)
        corner(x2, y2, z2, hash(i &+ step(i2), j &+ step(j2), k &+ step(k2), seed), cosine, sine, &sum)
        corner(x3, y3, z3, hash(i &+ 1, j &+ 1, k &+ 1, seed), cosine, sine, &sum)
        return (
            (scale * sum.value).replacing(with: zero, where: .!inside),
            (scale * sum.dx).replacing(with: zero, where: .!inside),
            (scale * sum.dy).replacing(with: zero, where: .!inside)
        )
    }

    /// The lanes' running sums of the corner contributions.
    private struct LaneSum {
        var value = FieldLanes(repeating: 0), dx = FieldLanes(repeating: 0), dy = FieldLanes(repeating: 0)
    }

    /// 1.5·2⁵²: adding it to a `Double` of magnitude below 2⁵¹ rounds it to an integer, and that
    /// integer's two's complement is then the low bits of the sum's bit pattern.
    private static var integerShift: Double { 6_755_399_441_055_744 }

    /// `floor` in every lane, exactly, for |x| < 2⁵¹: x rounded to an integer (by adding and
    /// subtracting `integerShift`), one less where that rounded up; floor(±0) is ±0. (SSE2 has no
    /// rounding instruction, and a conversion to `Int64` checks its range lane by lane.)
    @inline(__always)
    private static func floorLanes(_ x: FieldLanes) -> FieldLanes {
        let rounded = (x + integerShift) - integerShift
        var r = rounded.replacing(with: rounded - 1, where: rounded .> x)
        r.replace(with: x, where: x .== 0)
        return r
    }

    /// The lattice coordinate of an integral `Double` lane of magnitude below 2⁵¹, wrapped to 32
    /// bits (the low bits of its two's complement, as `UInt32(truncatingIfNeeded: Int64(f))`).
    @inline(__always)
    private static func lattice(_ f: FieldLanes) -> FieldLaneWords {
        FieldLaneWords(truncatingIfNeeded: unsafeBitCast(f + integerShift, to: FieldLaneBits.self))
    }

    /// 1 where `mask`, else 0, as `Double`s.
    @inline(__always)
    private static func unit(_ mask: FieldLaneMask) -> FieldLanes {
        FieldLanes(repeating: 0).replacing(with: 1, where: mask)
    }

    /// 1 where `mask`, else 0, as lattice steps.
    @inline(__always)
    private static func step(_ mask: FieldLaneMask) -> FieldLaneWords {
        FieldLaneWords(truncatingIfNeeded: FieldLaneBits(repeating: 0).replacing(with: 1, where: mask))
    }

    /// `corner` in every lane: lanes where the corner is outside the kernel (t ≤ 0, or NaN) add
    /// nothing, as the scalar code returns early.
    @inline(__always)
    private static func corner(
        _ x: FieldLanes, _ y: FieldLanes, _ z: FieldLanes, _ h: FieldLaneWords,
        _ cosine: Double, _ sine: Double, _ sum: inout LaneSum
    ) {
        let t = 0.5 - x * x - y * y - z * z
        let inside = t .> 0
        guard any(inside) else { return }
        let (gx, gy, gz) = gradient(h, cosine, sine)
        let dot = gx * x + gy * y + gz * z
        let t2 = t * t
        let t4 = t2 * t2
        let slope = -8 * t2 * t * dot
        sum.value.replace(with: sum.value + t4 * dot, where: inside)
        sum.dx.replace(with: sum.dx + (slope * x + t4 * gx), where: inside)
        sum.dy.replace(with: sum.dy + (slope * y + t4 * gy), where: inside)
    }

    /// `gradient` in every lane.
    @inline(__always)
    private static func gradient(
        _ h: FieldLaneWords, _ cosine: Double,
        _ sine: Double
    ) -> (FieldLanes, FieldLanes, FieldLanes) {
        let one = FieldLanes(repeating: 1)
        let h64 = FieldLaneBits(truncatingIfNeeded: h)
        let sx = one.replacing(with: -1, where: h64 & 1 .!= 0)
        let sy = one.replacing(with: -1, where: h64 & 2 .!= 0)
        let sz = one.replacing(with: -1, where: h64 & 4 .!= 0)
        guard sine != 0 else { return (cosine * sx, cosine * sy, cosine * sz) }
        // (sy, −sx, 0), (0, sz, −sy), (−sz, 0, sx), (−sy, sx, 0) by bits 8 and 9
        let choice = (h64 &>> 8) & 3
        let c0 = choice .== 0, c1 = choice .== 1, c2 = choice .== 2, c3 = choice .== 3
        let zero = FieldLanes(repeating: 0)
        var w0 = zero, w1 = zero, w2 = zero
        w0.replace(with: sy, where: c0); w1.replace(with: laneNegated(sx), where: c0)
        w1.replace(with: sz, where: c1); w2.replace(with: laneNegated(sy), where: c1)
        w0.replace(with: laneNegated(sz), where: c2); w2.replace(with: sx, where: c2)
        w0.replace(with: laneNegated(sy), where: c3); w1.replace(with: sx, where: c3)
        let c = cosine, s = sine * 1.5.squareRoot()
        return (c * sx + s * w0, c * sy + s * w1, c * sz + s * w2)
    }

    /// `hash` in every lane.
    @inline(__always)
    private static func hash(
        _ i: FieldLaneWords, _ j: FieldLaneWords, _ k: FieldLaneWords,
        _ seed: UInt32
    ) -> FieldLaneWords {
        let hi: FieldLaneWords = i &* 0x8DA6_B343
        let hj: FieldLaneWords = j &* 0xD816_3841
        let hk: FieldLaneWords = k &* 0xCB1A_B31F
        var h = FieldLaneWords(repeating: seed) ^ hi
        h ^= hj
        h ^= hk
        h ^= h &>> 16
        h &*= 0x85EB_CA6B
        h ^= h &>> 13
        h &*= 0xC2B2_AE35
        h ^= h &>> 16
        return h
    }
}
