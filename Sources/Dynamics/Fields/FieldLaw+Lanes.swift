import Foundation

// The built-in field laws over four items at once.
//
// Why: a field's law is the same arithmetic for every item, so four items go through it together
// in SIMD lanes (`SIMD4<Double>`: two SSE2 registers, one AVX register), loaded from the shared
// structure-of-arrays motion of `FieldCrowd`. Measured on ui_fields (10 000 items, three fields):
// see the commit that introduced this file and docs/THREADING.md.
//
// Bit for bit the scalar law. Every lane does the same IEEE operations, in the same order, as
// `FieldLaw.acceleration` does for one item — so the forces, and the benchmark hashes, are those
// of the per-item path (`FieldLanesTests` checks it at the region's edge, the minimum radius, the
// core, the position itself and non-finite inputs). What that takes:
// - branches become masks: both sides are computed and the lane keeps the side the scalar code
//   would have taken (`replacing(with:where:)`); a sum the scalar code skips is not added (adding
//   0 could turn −0 into +0);
// - Swift's `max(x, y)` is `y >= x ? y : x`, which the lanes copy (not `pointwiseMax`, whose NaN
//   rule differs); `abs` clears the sign bit and − flips it (the SIMD types' − is 0 − x, which
//   loses the sign of a zero);
// - functions without a SIMD form here (`pow`, `log`, `sin`, the core radius) run per lane with the
//   scalar code — the core radius, a function of the item's mass, is remembered for the last mass,
//   since a crowd's items mostly share a few;
// - Swift does not fuse a multiply and an add unless asked to, in lanes or not.

typealias FieldLanes = SIMD4<Double>
/// The lanes' bits, and a lane mask's storage.
typealias FieldLaneBits = SIMD4<UInt64>
typealias FieldLaneMask = SIMDMask<SIMD4<Int64>>
/// The lanes' lattice coordinates and hashes (simplex noise).
typealias FieldLaneWords = SIMD4<UInt32>

/// The last core radius computed in a batch, for the value of the scale it was computed for.
struct CoreRadiusMemo {
    private var scaleBits: UInt64 = Double.nan.bitPattern
    private var core = 0.0

    /// `law.coreRadius(scale)`, computed once for a run of equal scales.
    @inline(__always)
    mutating func coreRadius(_ scale: Double, _ law: FieldLaw) -> Double {
        if scale.bitPattern != scaleBits {
            scaleBits = scale.bitPattern
            core = law.coreRadius(scale)
        }
        return core
    }

    /// `coreRadius` of each lane.
    @inline(__always)
    mutating func coreRadii(_ scale: FieldLanes, _ law: FieldLaw) -> FieldLanes {
        var r = scale
        for i in r.indices { r[i] = coreRadius(scale[i], law) }
        return r
    }
}

/// |x|, exactly: the sign bit cleared.
@inline(__always)
func laneMagnitude(_ x: FieldLanes) -> FieldLanes {
    let bits = unsafeBitCast(x, to: FieldLaneBits.self) & FieldLaneBits(repeating: 0x7FFF_FFFF_FFFF_FFFF)
    return unsafeBitCast(bits, to: FieldLanes.self)
}

/// −x, exactly: the sign bit flipped. (The SIMD types' prefix − is 0 − x, which makes −(+0) +0
/// where the scalar −0.0 is −0.)
@inline(__always)
func laneNegated(_ x: FieldLanes) -> FieldLanes {
    let bits = unsafeBitCast(x, to: FieldLaneBits.self) ^ FieldLaneBits(repeating: 0x8000_0000_0000_0000)
    return unsafeBitCast(bits, to: FieldLanes.self)
}

/// Swift's `max(x, y)` (`y >= x ? y : x`) in every lane.
@inline(__always)
func laneMax(_ x: FieldLanes, _ y: FieldLanes) -> FieldLanes {
    x.replacing(with: y, where: y .>= x)
}

/// `f` applied to each lane.
@inline(__always)
func eachLane(_ x: FieldLanes, _ f: (Double) -> Double) -> FieldLanes {
    var r = x
    for i in r.indices { r[i] = f(x[i]) }
    return r
}

extension FieldLaw {
    /// Whether the law has a lane form (every built-in kind; not the custom one).
    var hasLanes: Bool { kind != .custom }

    /// `fall(d)` in every lane.
    @inline(__always)
    func fall(_ d: FieldLanes) -> FieldLanes {
        if falloff == 0 { return FieldLanes(repeating: 1) }
        let ratio = laneMax(d, FieldLanes(repeating: minimumDistance)) / Self.metre
        if falloff == 2 { return 1 / (ratio * ratio) }
        if falloff == 1 { return 1 / ratio }
        if falloff == -1 { return ratio }
        let exponent = -falloff
        return eachLane(ratio) { pow($0, exponent) }
    }

    /// `central(d, core:)` in every lane.
    @inline(__always)
    func central(_ d: FieldLanes, core: FieldLanes) -> FieldLanes {
        var r = fall(d) / d
        r.replace(with: 0, where: .!(d .> 0))
        r.replace(with: fall(core) / core, where: d .< core)
        return r
    }

    /// `potential(d, core:)` in every lane.
    @inline(__always)
    func potential(_ d: FieldLanes, core: FieldLanes) -> FieldLanes {
        let rim = laneMax(core, FieldLanes(repeating: minimumDistance))
        let atRim = fall(rim)
        let inner = 0.5 * atRim * d * d / core
        var u = 0.5 * atRim * core
        let middle = u + atRim * (d - core)
        u += atRim * (rim - core)
        var r = u + antiderivative(d) - antiderivative(rim)
        r.replace(with: middle, where: d .< rim)
        r.replace(with: inner, where: d .< core)
        return r
    }

    /// `antiderivative(d)` in every lane.
    @inline(__always)
    private func antiderivative(_ d: FieldLanes) -> FieldLanes {
        let metre = Self.metre
        switch falloff {
        case 0: return d
        case 1: return metre * eachLane(d) { log($0) }
        case 2: return -metre * metre / d
        case -1: return d * d / (2 * metre)
        default:
            let k = falloff
            return pow(metre, k) * eachLane(d) { pow($0, 1 - k) } / (1 - k)
        }
    }

    /// `conservingEnergy` in every lane: the same Newton steps, each lane stopping where the
    /// scalar loop would (`live`), and answering what it would have returned.
    @inline(__always)
    func conservingEnergy(
        _ ax: FieldLanes, _ ay: FieldLanes, rx: FieldLanes, ry: FieldLanes,
        vx: FieldLanes, vy: FieldLanes, scale: FieldLanes, core: FieldLanes
    ) -> (FieldLanes, FieldLanes) {
        let delta = drift / dt - 0.5 * dt
        let sx = rx - delta * vx, sy = ry - delta * vy
        let half = 0.5 * dt * dt
        let start = 0.5 * (vx * vx + vy * vy) + scale * potential((sx * sx + sy * sy).squareRoot(), core: core)
        var bx = ax, by = ay
        var bestX = ax, bestY = ay, best = FieldLanes(repeating: .infinity)
        var ex = FieldLanes(repeating: 0), ey = FieldLanes(repeating: 0)
        var live = FieldLaneMask(repeating: true)
        var converged = FieldLaneMask(repeating: false)
        for iteration in 0..<4 {
            let ux = vx + dt * bx, uy = vy + dt * by
            let x1 = sx + dt * vx + half * bx, y1 = sy + dt * vy + half * by
            let d1 = (x1 * x1 + y1 * y1).squareRoot()
            let kinetic = 0.5 * (ux * ux + uy * uy)
            let error = kinetic + scale * potential(d1, core: core) - start
            // error.isFinite: |error| < ∞ (false for NaN)
            let size = laneMagnitude(error)
            live .&= size .< .infinity
            let better = live .& (size .< best)
            best.replace(with: size, where: better)
            bestX.replace(with: bx, where: better)
            bestY.replace(with: by, where: better)
            live .&= .!(size .<= 1e-9 * (laneMagnitude(start) + kinetic))
            guard any(live) else { break }
            let pull = half * scale * central(d1, core: core)
            let gx = dt * ux + pull * x1, gy = dt * uy + pull * y1
            if iteration == 0 {
                let norm = (gx * gx + gy * gy).squareRoot()
                live .&= norm .> 0
                ex.replace(with: gx / norm, where: live)
                ey.replace(with: gy / norm, where: live)
            }
            let slope = gx * ex + gy * ey
            live .&= slope .> 0
            let lambda = laneNegated(error) / slope
            bx.replace(with: bx + lambda * ex, where: live)
            by.replace(with: by + lambda * ey, where: live)
            let done = live .& (laneMagnitude(lambda) * dt .<= 1e-6 * (ux * ux + uy * uy).squareRoot())
            converged .|= done
            live .&= .!done
            guard any(live) else { break }
        }
        return (bestX.replacing(with: bx, where: converged), bestY.replacing(with: by, where: converged))
    }

    /// `acceleration(rx:ry:vx:vy:mass:charge:)` of an item per lane, bit for bit.
    ///
    /// Lanes of items that take no force (mass 0, outside the region) may be computed with any
    /// values; their results are ignored. Not for the custom kind (returns zeros).
    @inline(__always)
    func accelerations(
        rx: FieldLanes, ry: FieldLanes, vx: FieldLanes, vy: FieldLanes,
        mass: FieldLanes, charge: FieldLanes, memo: inout CoreRadiusMemo
    ) -> (FieldLanes, FieldLanes) {
        let ex = rx + lead * vx, ey = ry + lead * vy
        let metre = Self.metre
        let zero = FieldLanes(repeating: 0)
        switch kind {
        case .linearGravity:
            let k = metre * strength * fall((ex * ex + ey * ey).squareRoot())
            return (k * dx, k * dy)
        case .radialGravity:
            let scale = metre * strength
            let core = FieldLanes(repeating: radialCore)
            let k = (-scale) * central((ex * ex + ey * ey).squareRoot(), core: core)
            return conservingEnergy(
                k * ex, k * ey, rx: rx, ry: ry, vx: vx, vy: vy,
                scale: FieldLanes(repeating: scale), core: core)
        case .vortex:
            let scale = metre * strength / (mass * mass)
            let k = scale * central((ex * ex + ey * ey).squareRoot(), core: memo.coreRadii(laneMagnitude(scale), self))
            return (laneNegated(k) * ey, k * ex)
        case .drag:
            let ux = vx - metre * dx, uy = vy - metre * dy
            let speed = (ux * ux + uy * uy).squareRoot()
            let c = strength * fall((ex * ex + ey * ey).squareRoot()) / (metre * mass)
            let rate = c * speed
            var k = laneNegated(rate) / (1 + rate * dt)
            k.replace(with: laneNegated(rate), where: .!(rate .> 0))
            let none = .!(speed .> 0) .| (c .== 0)
            return ((k * ux).replacing(with: zero, where: none), (k * uy).replacing(with: zero, where: none))
        case .velocity:
            return ((metre * dx - vx) / dt, (metre * dy - vy) / dt)
        case .noise, .turbulence:
            var k = metre * strength * fall((ex * ex + ey * ey).squareRoot()) * Self.noiseForceScale
            if kind == .turbulence {
                k *= (vx * vx + vy * vy) / (metre * metre)
            } else {
                k /= mass
            }
            let none = k .== 0
            if all(none) { return (zero, zero) }
            let shift = metre * noiseTime
            let f = noiseFrequency
            let n = SimplexNoise.sample(
                (ex + shift) * f, (ey + shift) * f, metre * noiseTime * f,
                cosine: noiseCosine, sine: noiseSine, seed: noiseSeed)
            return (
                (k * n.value * n.dx).replacing(with: zero, where: none),
                (k * n.value * n.dy).replacing(with: zero, where: none)
            )
        case .spring:
            if falloff == -1 && minimumDistance <= Self.distanceFloor {
                let k = -strength / mass
                return (k * ex, k * ey)
            }
            let scale = metre * strength / mass
            let core = memo.coreRadii(laneMagnitude(scale), self)
            let k = laneNegated(scale) * central((ex * ex + ey * ey).squareRoot(), core: core)
            return conservingEnergy(k * ex, k * ey, rx: rx, ry: ry, vx: vx, vy: vy, scale: scale, core: core)
        case .electric:
            let scale = -metre * strength * charge / mass
            let core = memo.coreRadii(laneMagnitude(scale), self)
            let k = laneNegated(scale) * central((ex * ex + ey * ey).squareRoot(), core: core)
            let (ax, ay) = conservingEnergy(k * ex, k * ey, rx: rx, ry: ry, vx: vx, vy: vy, scale: scale, core: core)
            let none = charge .== 0
            return (ax.replacing(with: zero, where: none), ay.replacing(with: zero, where: none))
        case .magnetic:
            let omega = strength * charge * fall((ex * ex + ey * ey).squareRoot()) / mass
            let theta = omega * dt
            let s = eachLane(theta) { sin($0) }
            let half = eachLane(theta / 2) { sin($0) }
            let cm1 = -2 * half * half
            let none = charge .== 0
            return (
                ((cm1 * vx + s * vy) / dt).replacing(with: zero, where: none),
                ((cm1 * vy - s * vx) / dt).replacing(with: zero, where: none)
            )
        case .custom:
            return (zero, zero)
        }
    }
}
