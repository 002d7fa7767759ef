/// Four contact constraints of one colour, stored lane by lane (structure of arrays), solved at once
/// with `SIMD4<Float>` — Box2D v3's "wide" contacts.
///
/// A colour holds no dynamic body twice, so the four lanes never write the same dynamic body: the
/// solver gathers the eight bodies' velocities and delta poses, solves all lanes, and scatters the
/// velocities back. Static bodies (and padding lanes) point at the shared zero record with zero
/// mass, so their writes change nothing. A one-point manifold leaves its second point with zero
/// mass, which makes every impulse of that point zero.
struct WideContact {
    var a: SIMD4<Int32> = .zero
    var b: SIMD4<Int32> = .zero
    var nx: SIMD4<Float> = .zero, ny: SIMD4<Float> = .zero
    var friction: SIMD4<Float> = .zero
    var mA: SIMD4<Float> = .zero, iA: SIMD4<Float> = .zero, mB: SIMD4<Float> = .zero, iB: SIMD4<Float> = .zero
    var biasRate: SIMD4<Float> = .zero, massScale: SIMD4<Float> = .zero, impulseScale: SIMD4<Float> = .zero
    // point 1
    var rA1x: SIMD4<Float> = .zero, rA1y: SIMD4<Float> = .zero, rB1x: SIMD4<Float> = .zero, rB1y: SIMD4<Float> = .zero
    var base1: SIMD4<Float> = .zero, normalMass1: SIMD4<Float> = .zero, tangentMass1: SIMD4<Float> = .zero
    var normalImpulse1: SIMD4<Float> = .zero, tangentImpulse1: SIMD4<Float> = .zero, maxNormalImpulse1: SIMD4<Float> = .zero
    // point 2
    var rA2x: SIMD4<Float> = .zero, rA2y: SIMD4<Float> = .zero, rB2x: SIMD4<Float> = .zero, rB2y: SIMD4<Float> = .zero
    var base2: SIMD4<Float> = .zero, normalMass2: SIMD4<Float> = .zero, tangentMass2: SIMD4<Float> = .zero
    var normalImpulse2: SIMD4<Float> = .zero, tangentImpulse2: SIMD4<Float> = .zero, maxNormalImpulse2: SIMD4<Float> = .zero
}

/// Gathered state of four bodies.
struct WideBodies {
    var vx: SIMD4<Float>, vy: SIMD4<Float>, w: SIMD4<Float>
    var dpx: SIMD4<Float>, dpy: SIMD4<Float>, qc: SIMD4<Float>, qs: SIMD4<Float>

    @inline(__always)
    init(_ s: UnsafePointer<BodyState>, _ idx: SIMD4<Int32>) {
        let s0 = s[Int(idx[0])], s1 = s[Int(idx[1])], s2 = s[Int(idx[2])], s3 = s[Int(idx[3])]
        vx = SIMD4(s0.v.x, s1.v.x, s2.v.x, s3.v.x)
        vy = SIMD4(s0.v.y, s1.v.y, s2.v.y, s3.v.y)
        w = SIMD4(s0.w, s1.w, s2.w, s3.w)
        dpx = SIMD4(s0.dp.x, s1.dp.x, s2.dp.x, s3.dp.x)
        dpy = SIMD4(s0.dp.y, s1.dp.y, s2.dp.y, s3.dp.y)
        qc = SIMD4(s0.dq.c, s1.dq.c, s2.dq.c, s3.dq.c)
        qs = SIMD4(s0.dq.s, s1.dq.s, s2.dq.s, s3.dq.s)
    }

    /// Writes back the lanes of dynamic bodies only (`invMass` > 0): static, kinematic and padding
    /// lanes may share a body with another lane or another thread, and their velocities never change.
    @inline(__always)
    func scatter(_ s: UnsafeMutablePointer<BodyState>, _ idx: SIMD4<Int32>, _ invMass: SIMD4<Float>) {
        for l in 0..<4 where invMass[l] > 0 {
            let i = Int(idx[l])
            s[i].v = Vec2(vx[l], vy[l])
            s[i].w = w[l]
        }
    }
}

enum WideContactSolver {
    /// Packs scalar constraints `range` of one colour into lanes of four; missing lanes are padding
    /// with zero mass on the shared zero body.
    static func pack(_ cs: UnsafePointer<ContactConstraint>, _ range: Range<Int>, dummy: Int32, into out: inout [WideContact]) {
        var pad = ContactConstraint()
        pad.a = dummy; pad.b = dummy
        var k = range.lowerBound
        while k < range.upperBound {
            let c0 = cs[k]
            let c1 = k + 1 < range.upperBound ? cs[k + 1] : pad
            let c2 = k + 2 < range.upperBound ? cs[k + 2] : pad
            let c3 = k + 3 < range.upperBound ? cs[k + 3] : pad
            @inline(__always) func f(_ g: (ContactConstraint) -> Float) -> SIMD4<Float> { SIMD4(g(c0), g(c1), g(c2), g(c3)) }
            @inline(__always) func q(_ c: ContactConstraint) -> ConstraintPoint { c.pointCount > 1 ? c.p1 : ConstraintPoint() }
            let q0 = q(c0), q1 = q(c1), q2 = q(c2), q3 = q(c3)
            @inline(__always) func g2(_ g: (ConstraintPoint) -> Float) -> SIMD4<Float> { SIMD4(g(q0), g(q1), g(q2), g(q3)) }
            var wc = WideContact()
            wc.a = SIMD4(c0.a, c1.a, c2.a, c3.a)
            wc.b = SIMD4(c0.b, c1.b, c2.b, c3.b)
            wc.nx = f { $0.normal.x }; wc.ny = f { $0.normal.y }
            wc.friction = f { $0.friction }
            wc.mA = f { $0.mA }; wc.iA = f { $0.iA }; wc.mB = f { $0.mB }; wc.iB = f { $0.iB }
            wc.biasRate = f { $0.softness.biasRate }; wc.massScale = f { $0.softness.massScale }; wc.impulseScale = f { $0.softness.impulseScale }
            wc.rA1x = f { $0.p0.anchorA.x }; wc.rA1y = f { $0.p0.anchorA.y }
            wc.rB1x = f { $0.p0.anchorB.x }; wc.rB1y = f { $0.p0.anchorB.y }
            wc.base1 = f { $0.p0.baseSeparation }; wc.normalMass1 = f { $0.p0.normalMass }; wc.tangentMass1 = f { $0.p0.tangentMass }
            wc.normalImpulse1 = f { $0.p0.normalImpulse }; wc.tangentImpulse1 = f { $0.p0.tangentImpulse }
            wc.rA2x = g2 { $0.anchorA.x }; wc.rA2y = g2 { $0.anchorA.y }
            wc.rB2x = g2 { $0.anchorB.x }; wc.rB2y = g2 { $0.anchorB.y }
            wc.base2 = g2 { $0.baseSeparation }; wc.normalMass2 = g2 { $0.normalMass }; wc.tangentMass2 = g2 { $0.tangentMass }
            wc.normalImpulse2 = g2 { $0.normalImpulse }; wc.tangentImpulse2 = g2 { $0.tangentImpulse }
            out.append(wc)
            k += 4
        }
    }

    /// Copies the accumulated impulses back to the scalar constraints (for restitution and storage).
    static func unpack(_ wide: UnsafePointer<WideContact>, _ wideRange: Range<Int>, _ cs: UnsafeMutablePointer<ContactConstraint>, _ range: Range<Int>) {
        var k = range.lowerBound
        for wi in wideRange {
            let wc = wide[wi]
            for l in 0..<4 where k + l < range.upperBound {
                cs[k + l].p0.normalImpulse = wc.normalImpulse1[l]
                cs[k + l].p0.tangentImpulse = wc.tangentImpulse1[l]
                cs[k + l].p0.maxNormalImpulse = wc.maxNormalImpulse1[l]
                cs[k + l].p1.normalImpulse = wc.normalImpulse2[l]
                cs[k + l].p1.tangentImpulse = wc.tangentImpulse2[l]
                cs[k + l].p1.maxNormalImpulse = wc.maxNormalImpulse2[l]
            }
            k += 4
        }
    }

    @inline(__always)
    static func warmStart(_ c: UnsafeMutablePointer<WideContact>, _ states: UnsafeMutablePointer<BodyState>) {
        var A = WideBodies(states, c.pointee.a)
        var B = WideBodies(states, c.pointee.b)
        let nx = c.pointee.nx, ny = c.pointee.ny
        let tx = ny, ty = -nx
        do {
            let px = c.pointee.normalImpulse1 * nx + c.pointee.tangentImpulse1 * tx
            let py = c.pointee.normalImpulse1 * ny + c.pointee.tangentImpulse1 * ty
            A.w -= c.pointee.iA * (c.pointee.rA1x * py - c.pointee.rA1y * px)
            A.vx -= c.pointee.mA * px; A.vy -= c.pointee.mA * py
            B.w += c.pointee.iB * (c.pointee.rB1x * py - c.pointee.rB1y * px)
            B.vx += c.pointee.mB * px; B.vy += c.pointee.mB * py
        }
        do {
            let px = c.pointee.normalImpulse2 * nx + c.pointee.tangentImpulse2 * tx
            let py = c.pointee.normalImpulse2 * ny + c.pointee.tangentImpulse2 * ty
            A.w -= c.pointee.iA * (c.pointee.rA2x * py - c.pointee.rA2y * px)
            A.vx -= c.pointee.mA * px; A.vy -= c.pointee.mA * py
            B.w += c.pointee.iB * (c.pointee.rB2x * py - c.pointee.rB2y * px)
            B.vx += c.pointee.mB * px; B.vy += c.pointee.mB * py
        }
        A.scatter(states, c.pointee.a, c.pointee.mA)
        B.scatter(states, c.pointee.b, c.pointee.mB)
    }

    @inline(__always)
    static func solve(_ c: UnsafeMutablePointer<WideContact>, _ states: UnsafeMutablePointer<BodyState>,
                      invH: Float, useBias: Bool, maxPushSpeed: Float) {
        var A = WideBodies(states, c.pointee.a)
        var B = WideBodies(states, c.pointee.b)
        let nx = c.pointee.nx, ny = c.pointee.ny
        let mA = c.pointee.mA, iA = c.pointee.iA, mB = c.pointee.mB, iB = c.pointee.iB
        let one = SIMD4<Float>(repeating: 1), zero = SIMD4<Float>.zero
        let biasRate = useBias ? c.pointee.massScale * c.pointee.biasRate : zero
        let massScale = useBias ? c.pointee.massScale : one
        let impulseScale = useBias ? c.pointee.impulseScale : zero
        let invHW = SIMD4<Float>(repeating: invH)
        let minBias = SIMD4<Float>(repeating: -maxPushSpeed)
        let dpx = B.dpx - A.dpx, dpy = B.dpy - A.dpy

        @inline(__always)
        func normalPoint(_ rAx: SIMD4<Float>, _ rAy: SIMD4<Float>, _ rBx: SIMD4<Float>, _ rBy: SIMD4<Float>,
                         _ base: SIMD4<Float>, _ normalMass: SIMD4<Float>, _ accumulated: inout SIMD4<Float>, _ maxImpulse: inout SIMD4<Float>) {
            // current separation from the motion since the step began
            let rsAx = A.qc * rAx - A.qs * rAy, rsAy = A.qs * rAx + A.qc * rAy
            let rsBx = B.qc * rBx - B.qs * rBy, rsBy = B.qs * rBx + B.qc * rBy
            let dsx = dpx + (rsBx - rsAx), dsy = dpy + (rsBy - rsAy)
            let s = nx * dsx + ny * dsy + base
            let speculative = s .> zero
            var bias = vmax(biasRate * s, minBias)
            bias.replace(with: s * invHW, where: speculative)
            var pointMassScale = massScale
            pointMassScale.replace(with: one, where: speculative)
            var pointImpulseScale = impulseScale
            pointImpulseScale.replace(with: zero, where: speculative)
            let dvx = (B.vx - B.w * rBy) - (A.vx - A.w * rAy)
            let dvy = (B.vy + B.w * rBx) - (A.vy + A.w * rAx)
            let vn = dvx * nx + dvy * ny
            let negImpulse = normalMass * (pointMassScale * vn + bias) + pointImpulseScale * accumulated
            let newImpulse = vmax(accumulated - negImpulse, zero)
            let impulse = newImpulse - accumulated
            accumulated = newImpulse
            maxImpulse = vmax(maxImpulse, impulse)
            let px = impulse * nx, py = impulse * ny
            A.vx -= mA * px; A.vy -= mA * py
            A.w -= iA * (rAx * py - rAy * px)
            B.vx += mB * px; B.vy += mB * py
            B.w += iB * (rBx * py - rBy * px)
        }
        normalPoint(c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, c.pointee.base1, c.pointee.normalMass1,
                    &c.pointee.normalImpulse1, &c.pointee.maxNormalImpulse1)
        normalPoint(c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, c.pointee.base2, c.pointee.normalMass2,
                    &c.pointee.normalImpulse2, &c.pointee.maxNormalImpulse2)

        if !useBias {
            let tx = ny, ty = -nx
            let friction = c.pointee.friction
            @inline(__always)
            func frictionPoint(_ rAx: SIMD4<Float>, _ rAy: SIMD4<Float>, _ rBx: SIMD4<Float>, _ rBy: SIMD4<Float>,
                               _ tangentMass: SIMD4<Float>, _ normalImpulse: SIMD4<Float>, _ accumulated: inout SIMD4<Float>) {
                let dvx = (B.vx - B.w * rBy) - (A.vx - A.w * rAy)
                let dvy = (B.vy + B.w * rBx) - (A.vy + A.w * rAx)
                let vt = dvx * tx + dvy * ty
                let maxFriction = friction * normalImpulse
                let newImpulse = vmax(-maxFriction, vmin(accumulated - tangentMass * vt, maxFriction))
                let impulse = newImpulse - accumulated
                accumulated = newImpulse
                let px = impulse * tx, py = impulse * ty
                A.vx -= mA * px; A.vy -= mA * py
                A.w -= iA * (rAx * py - rAy * px)
                B.vx += mB * px; B.vy += mB * py
                B.w += iB * (rBx * py - rBy * px)
            }
            frictionPoint(c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, c.pointee.tangentMass1,
                          c.pointee.normalImpulse1, &c.pointee.tangentImpulse1)
            frictionPoint(c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, c.pointee.tangentMass2,
                          c.pointee.normalImpulse2, &c.pointee.tangentImpulse2)
        }
        A.scatter(states, c.pointee.a, c.pointee.mA)
        B.scatter(states, c.pointee.b, c.pointee.mB)
    }
}

@inline(__always) func vmax(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .> a) }
@inline(__always) func vmin(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }
