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
    // the two points' coupling, for the block solve (`ContactBlock`): the normal masses' inverses and
    // the off-diagonal term; `pair` is 1 where both points are solved together, 0 where they are
    // solved one after the other (a contact between moving bodies, one point, or two too close to
    // tell apart)
    var k11: SIMD4<Float> = .zero, k22: SIMD4<Float> = .zero, k12: SIMD4<Float> = .zero, pair: SIMD4<Float> = .zero
    // restitution only (last, so the sub-steps never bring them into cache)
    var restitution: SIMD4<Float> = .zero, relativeVelocity1: SIMD4<Float> = .zero, relativeVelocity2: SIMD4<Float> = .zero
    /// Each lane's place in the step's contact order (`ContactInput.found`), where its impulses are
    /// stored; −1 in a padding lane.
    var found: SIMD4<Int32> = .zero

    /// Makes one lane of `w` a padding lane, in place: a constraint on the shared zero body `dummy`
    /// with zero mass, so it applies no impulse. Every field is four lanes of four bytes, so the
    /// lane is zeroed field by field.
    @inline(__always)
    static func padLane(_ w: UnsafeMutablePointer<WideContact>, _ lane: Int, dummy: Int32) {
        let raw = UnsafeMutableRawPointer(w)
        for field in 0..<(MemoryLayout<WideContact>.size / 16) {
            raw.storeBytes(of: 0 as Float, toByteOffset: 16 &* field &+ 4 &* lane, as: Float.self)
        }
        let a = MemoryLayout<WideContact>.offset(of: \.a)!, b = MemoryLayout<WideContact>.offset(of: \.b)!
        let massScale = MemoryLayout<WideContact>.offset(of: \.massScale)!
        raw.storeBytes(of: dummy, toByteOffset: a &+ 4 &* lane, as: Int32.self)
        raw.storeBytes(of: dummy, toByteOffset: b &+ 4 &* lane, as: Int32.self)
        raw.storeBytes(of: 1 as Float, toByteOffset: massScale &+ 4 &* lane, as: Float.self)
        // a well-formed (if unused) block: no division by zero in the lanes nobody reads
        for field in [\WideContact.k11, \WideContact.k22] {
            raw.storeBytes(of: 1 as Float, toByteOffset: MemoryLayout<WideContact>.offset(of: field)! &+ 4 &* lane, as: Float.self)
        }
        let found = MemoryLayout<WideContact>.offset(of: \.found)!
        raw.storeBytes(of: -1 as Int32, toByteOffset: found &+ 4 &* lane, as: Int32.self)   // no contact to store into
    }

    /// Prepares one lane straight from its contact's input, with the scalar preparation's arithmetic
    /// (`ContactSolver.preparePoint`). Building four scalar constraints and then transposing them
    /// cost about as much again as the arithmetic. A one-point manifold's second point is zero (zero
    /// mass: no impulse). Every field of the lane is written, so the constraint needs no clearing
    /// first. Each value is stored into its lane in place: a mutating method with a variable lane
    /// index would copy the whole constraint in and out per lane.
    @inline(__always)
    static func prepareLane(_ w: UnsafeMutablePointer<WideContact>, _ lane: Int, _ input: UnsafePointer<ContactInput>,
                            sims: UnsafePointer<BodyStepData>, states: UnsafePointer<BodyState>, softness: Softness,
                            block blockSolve: Bool) {
        let offset = 4 &* lane
        @inline(__always) func put(_ field: UnsafeMutablePointer<SIMD4<Float>>, _ x: Float) {
            UnsafeMutableRawPointer(field).storeBytes(of: x, toByteOffset: offset, as: Float.self)
        }
        @inline(__always) func put(_ field: UnsafeMutablePointer<SIMD4<Int32>>, _ x: Int32) {
            UnsafeMutableRawPointer(field).storeBytes(of: x, toByteOffset: offset, as: Int32.self)
        }
        let sc = input.pointee.solved
        let n = input.pointee.normal
        let sa = sims[Int(sc.a)], sb = sims[Int(sc.b)]
        let mA = sa.invMass, iA = sa.invI, mB = sb.invMass, iB = sb.invI
        let vA = states[Int(sc.a)].v, wA = states[Int(sc.a)].w
        let vB = states[Int(sc.b)].v, wB = states[Int(sc.b)].w
        put(&w.pointee.a, sc.a); put(&w.pointee.b, sc.b); put(&w.pointee.found, input.pointee.found)
        put(&w.pointee.nx, n.x); put(&w.pointee.ny, n.y)
        put(&w.pointee.friction, input.pointee.friction); put(&w.pointee.restitution, input.pointee.restitution)
        put(&w.pointee.mA, mA); put(&w.pointee.iA, iA); put(&w.pointee.mB, mB); put(&w.pointee.iB, iB)
        put(&w.pointee.biasRate, softness.biasRate); put(&w.pointee.massScale, softness.massScale)
        put(&w.pointee.impulseScale, softness.impulseScale)
        /// One manifold point into the lane of its ten fields (point 1's or point 2's); zeros for a
        /// point the manifold does not have.
        @inline(__always)
        func putPoint(_ point: InputPoint?, _ rAx: UnsafeMutablePointer<SIMD4<Float>>, _ rAy: UnsafeMutablePointer<SIMD4<Float>>,
                      _ rBx: UnsafeMutablePointer<SIMD4<Float>>, _ rBy: UnsafeMutablePointer<SIMD4<Float>>,
                      _ base: UnsafeMutablePointer<SIMD4<Float>>, _ normalMass: UnsafeMutablePointer<SIMD4<Float>>,
                      _ tangentMass: UnsafeMutablePointer<SIMD4<Float>>, _ normalImpulse: UnsafeMutablePointer<SIMD4<Float>>,
                      _ tangentImpulse: UnsafeMutablePointer<SIMD4<Float>>, _ relativeVelocity: UnsafeMutablePointer<SIMD4<Float>>) {
            guard let mp = point else {
                put(rAx, 0); put(rAy, 0); put(rBx, 0); put(rBy, 0); put(base, 0); put(normalMass, 0); put(tangentMass, 0)
                put(normalImpulse, 0); put(tangentImpulse, 0); put(relativeVelocity, 0)
                return
            }
            let p = ContactSolver.preparePoint(mp, normal: n, mA: mA, iA: iA, mB: mB, iB: iB,
                                               vA: vA, wA: wA, vB: vB, wB: wB)
            put(rAx, p.anchorA.x); put(rAy, p.anchorA.y); put(rBx, p.anchorB.x); put(rBy, p.anchorB.y)
            put(base, p.baseSeparation); put(normalMass, p.normalMass); put(tangentMass, p.tangentMass)
            put(normalImpulse, p.normalImpulse); put(tangentImpulse, p.tangentImpulse); put(relativeVelocity, p.relativeVelocity)
        }
        put(&w.pointee.maxNormalImpulse1, 0); put(&w.pointee.maxNormalImpulse2, 0)
        let pointCount = input.pointee.pointCount
        putPoint(pointCount > 0 ? input.pointee.p0 : nil, &w.pointee.rA1x, &w.pointee.rA1y, &w.pointee.rB1x, &w.pointee.rB1y,
                 &w.pointee.base1, &w.pointee.normalMass1, &w.pointee.tangentMass1, &w.pointee.normalImpulse1,
                 &w.pointee.tangentImpulse1, &w.pointee.relativeVelocity1)
        putPoint(pointCount > 1 ? input.pointee.p1 : nil, &w.pointee.rA2x, &w.pointee.rA2y, &w.pointee.rB2x, &w.pointee.rB2y,
                 &w.pointee.base2, &w.pointee.normalMass2, &w.pointee.tangentMass2, &w.pointee.normalImpulse2,
                 &w.pointee.tangentImpulse2, &w.pointee.relativeVelocity2)
        guard blockSolve else { return }
        let block = ContactBlock(pointCount: pointCount, input.pointee.p0, input.pointee.p1, normal: n, mA: mA, iA: iA, mB: mB, iB: iB,
                                 isStaticPair: sc.isStaticPair)
        put(&w.pointee.k11, block.k11); put(&w.pointee.k22, block.k22); put(&w.pointee.k12, block.k12)
        put(&w.pointee.pair, block.isPair ? 1 : 0)
    }
}

/// Gathered state of four bodies.
///
/// A `BodyState` is two rows of four floats — (vx, vy, w, flags) and (dpx, dpy, qc, qs) — so four
/// bodies are gathered with eight vector loads and two 4 × 4 transposes, and written back one row
/// per body.
struct WideBodies {
    var vx: SIMD4<Float>, vy: SIMD4<Float>, w: SIMD4<Float>, flags: SIMD4<Float>
    var dpx: SIMD4<Float>, dpy: SIMD4<Float>, qc: SIMD4<Float>, qs: SIMD4<Float>

    @inline(__always)
    init(_ s: UnsafePointer<BodyState>, _ idx: SIMD4<Int32>) {
        let raw = UnsafeRawPointer(s)
        let o0 = Int(idx[0]) &* 32, o1 = Int(idx[1]) &* 32, o2 = Int(idx[2]) &* 32, o3 = Int(idx[3]) &* 32
        let v0 = raw.loadUnaligned(fromByteOffset: o0, as: SIMD4<Float>.self)
        let v1 = raw.loadUnaligned(fromByteOffset: o1, as: SIMD4<Float>.self)
        let v2 = raw.loadUnaligned(fromByteOffset: o2, as: SIMD4<Float>.self)
        let v3 = raw.loadUnaligned(fromByteOffset: o3, as: SIMD4<Float>.self)
        let p0 = raw.loadUnaligned(fromByteOffset: o0 &+ 16, as: SIMD4<Float>.self)
        let p1 = raw.loadUnaligned(fromByteOffset: o1 &+ 16, as: SIMD4<Float>.self)
        let p2 = raw.loadUnaligned(fromByteOffset: o2 &+ 16, as: SIMD4<Float>.self)
        let p3 = raw.loadUnaligned(fromByteOffset: o3 &+ 16, as: SIMD4<Float>.self)
        vx = SIMD4(v0[0], v1[0], v2[0], v3[0])
        vy = SIMD4(v0[1], v1[1], v2[1], v3[1])
        w = SIMD4(v0[2], v1[2], v2[2], v3[2])
        flags = SIMD4(v0[3], v1[3], v2[3], v3[3])
        dpx = SIMD4(p0[0], p1[0], p2[0], p3[0])
        dpy = SIMD4(p0[1], p1[1], p2[1], p3[1])
        qc = SIMD4(p0[2], p1[2], p2[2], p3[2])
        qs = SIMD4(p0[3], p1[3], p2[3], p3[3])
    }

    /// Writes the four velocity rows back. Lanes of dynamic bodies (`invMass` > 0) go to their
    /// bodies; the others — static, kinematic and padding lanes, which may share a body with another
    /// lane or another thread and whose velocities never change — go to the scratch record `trash`,
    /// which nothing reads and no other chunk running at the same time writes.
    @inline(__always)
    func scatter(_ s: UnsafeMutablePointer<BodyState>, _ idx: SIMD4<Int32>, _ invMass: SIMD4<Float>, trash: Int32) {
        let target = SIMD4<Int32>(repeating: trash).replacing(with: idx, where: invMass .> SIMD4<Float>.zero)
        WideBodies.storeRows(UnsafeMutableRawPointer(s), target, vx, vy, w, flags)
    }

    /// Transposes four lanes back into four rows and stores them. Kept out of line on purpose:
    /// inlined, the optimiser pulls each lane's extraction back through the solver's arithmetic and
    /// turns the vector code into scalar code with many spills (about 40 % more instructions).
    @inline(never)
    static func storeRows(_ raw: UnsafeMutableRawPointer, _ target: SIMD4<Int32>, _ vx: SIMD4<Float>, _ vy: SIMD4<Float>,
                          _ w: SIMD4<Float>, _ flags: SIMD4<Float>) {
        raw.storeBytes(of: SIMD4(vx[0], vy[0], w[0], flags[0]), toByteOffset: Int(target[0]) &* 32, as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4(vx[1], vy[1], w[1], flags[1]), toByteOffset: Int(target[1]) &* 32, as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4(vx[2], vy[2], w[2], flags[2]), toByteOffset: Int(target[2]) &* 32, as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4(vx[3], vy[3], w[3], flags[3]), toByteOffset: Int(target[3]) &* 32, as: SIMD4<Float>.self)
    }
}

enum WideContactSolver {
    @inline(__always)
    static func warmStart(_ c: UnsafeMutablePointer<WideContact>, _ states: UnsafeMutablePointer<BodyState>, trash: Int32) {
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
        A.scatter(states, c.pointee.a, c.pointee.mA, trash: trash)
        B.scatter(states, c.pointee.b, c.pointee.mB, trash: trash)
    }

    @inline(__always)
    static func solve(_ c: UnsafeMutablePointer<WideContact>, _ states: UnsafeMutablePointer<BodyState>,
                      invH: Float, useBias: Bool, maxPushSpeed: Float, trash: Int32) {
        solve(c, states, invH: invH, useBias: useBias, maxPushSpeed: maxPushSpeed, block: false, trash: trash)
    }

    /// `solve` with the block solve of static contacts (`WorldDef.blockSolve`). Two entry points,
    /// each with its `block` a constant, so the optimiser drops the other path: with the choice
    /// made inside, the one loop holding both paths cost the sequential solve 16 % more
    /// instructions (callgrind, large_pyramid).
    @inline(__always)
    static func solveBlock(_ c: UnsafeMutablePointer<WideContact>, _ states: UnsafeMutablePointer<BodyState>,
                           invH: Float, useBias: Bool, maxPushSpeed: Float, trash: Int32) {
        solve(c, states, invH: invH, useBias: useBias, maxPushSpeed: maxPushSpeed, block: true, trash: trash)
    }

    @inline(__always)
    private static func solve(_ c: UnsafeMutablePointer<WideContact>, _ states: UnsafeMutablePointer<BodyState>,
                              invH: Float, useBias: Bool, maxPushSpeed: Float, block: Bool, trash: Int32) {
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

        /// One point after the other (Box2D v3).
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
        /// Both points at once (`ContactBlock`; Box2D 2.x).
        @inline(__always)
        func solveNormalsAsBlock() {
            // Both points' current separations and normal velocities, from the same velocities: the
            // block solve (`ContactBlock`) finds both impulses at once, so a face landing flat takes the
            // same impulse at both ends instead of the first point's share rotating it.
            let rA1x = c.pointee.rA1x, rA1y = c.pointee.rA1y, rB1x = c.pointee.rB1x, rB1y = c.pointee.rB1y
            let rA2x = c.pointee.rA2x, rA2y = c.pointee.rA2y, rB2x = c.pointee.rB2x, rB2y = c.pointee.rB2y
            @inline(__always)
            func separation(_ rAx: SIMD4<Float>, _ rAy: SIMD4<Float>, _ rBx: SIMD4<Float>, _ rBy: SIMD4<Float>,
                            _ base: SIMD4<Float>) -> SIMD4<Float> {
                let rsAx = A.qc * rAx - A.qs * rAy, rsAy = A.qs * rAx + A.qc * rAy
                let rsBx = B.qc * rBx - B.qs * rBy, rsBy = B.qs * rBx + B.qc * rBy
                return nx * (dpx + (rsBx - rsAx)) + ny * (dpy + (rsBy - rsAy)) + base
            }
            @inline(__always)
            func normalVelocity(_ rAx: SIMD4<Float>, _ rAy: SIMD4<Float>, _ rBx: SIMD4<Float>, _ rBy: SIMD4<Float>) -> SIMD4<Float> {
                let dvx = (B.vx - B.w * rBy) - (A.vx - A.w * rAy)
                let dvy = (B.vy + B.w * rBx) - (A.vy + A.w * rAx)
                return dvx * nx + dvy * ny
            }
            /// A point's bias and mass scale: a speculative point closes its gap exactly (rigid), a
            /// touching one is soft when biased. Its impulse scale is 1 − mass scale (`Softness`).
            @inline(__always)
            func softening(_ s: SIMD4<Float>) -> (bias: SIMD4<Float>, massScale: SIMD4<Float>) {
                let speculative = s .> zero
                var bias = vmax(biasRate * s, minBias)
                bias.replace(with: s * invHW, where: speculative)
                var pointMassScale = massScale
                pointMassScale.replace(with: one, where: speculative)
                return (bias, pointMassScale)
            }
            let s1 = softening(separation(rA1x, rA1y, rB1x, rB1y, c.pointee.base1))
            let s2 = softening(separation(rA2x, rA2y, rB2x, rB2y, c.pointee.base2))
            let vn1 = normalVelocity(rA1x, rA1y, rB1x, rB1y), vn2 = normalVelocity(rA2x, rA2y, rB2x, rB2y)
            let old1 = c.pointee.normalImpulse1, old2 = c.pointee.normalImpulse2
            let k11 = c.pointee.k11, k22 = c.pointee.k22, k12 = c.pointee.k12
            let pair = c.pointee.pair .> zero
            // b = massScale · (the velocity without the accumulated impulses) + bias, per point
            let b1 = s1.massScale * (vn1 - k11 * old1 - k12 * old2) + s1.bias
            let b2 = s2.massScale * (vn2 - k12 * old1 - k22 * old2) + s2.bias
            let c12 = s1.massScale * k12, c21 = s2.massScale * k12
            // The complementarity cases in Box2D v2's order: both points push, the first alone, the
            // second alone, neither.
            let invDet = one / (k11 * k22 - c12 * c21)
            let both1 = (c12 * b2 - k22 * b1) * invDet, both2 = (c21 * b1 - k11 * b2) * invDet
            let first = -b1 / k11, second = -b2 / k22
            // lanes not solved as a block (and a block lane no case fits, from rounding): one
            // point after the other, the first with the second's impulse held
            var x1 = vmax(-(b1 + c12 * old2) * c.pointee.normalMass1, zero)
            var x2 = vmax(-(b2 + c21 * x1) * c.pointee.normalMass2, zero)
            let none = pair .& (b1 .>= zero) .& (b2 .>= zero)
            x1.replace(with: zero, where: none); x2.replace(with: zero, where: none)
            let secondOnly = pair .& (second .>= zero) .& (c12 * second + b1 .>= zero)
            x1.replace(with: zero, where: secondOnly); x2.replace(with: second, where: secondOnly)
            let firstOnly = pair .& (first .>= zero) .& (c21 * first + b2 .>= zero)
            x1.replace(with: first, where: firstOnly); x2.replace(with: zero, where: firstOnly)
            let bothPush = pair .& (both1 .>= zero) .& (both2 .>= zero)
            x1.replace(with: both1, where: bothPush); x2.replace(with: both2, where: bothPush)
            let d1 = x1 - old1, d2 = x2 - old2
            c.pointee.normalImpulse1 = x1; c.pointee.normalImpulse2 = x2
            c.pointee.maxNormalImpulse1 = vmax(c.pointee.maxNormalImpulse1, d1)
            c.pointee.maxNormalImpulse2 = vmax(c.pointee.maxNormalImpulse2, d2)
            let p1x = d1 * nx, p1y = d1 * ny, p2x = d2 * nx, p2y = d2 * ny
            A.vx -= mA * (p1x + p2x); A.vy -= mA * (p1y + p2y)
            A.w -= iA * ((rA1x * p1y - rA1y * p1x) + (rA2x * p2y - rA2y * p2x))
            B.vx += mB * (p1x + p2x); B.vy += mB * (p1y + p2y)
            B.w += iB * ((rB1x * p1y - rB1y * p1x) + (rB2x * p2y - rB2y * p2x))
        }
        if block {
            solveNormalsAsBlock()
        } else {
            normalPoint(c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, c.pointee.base1, c.pointee.normalMass1,
                        &c.pointee.normalImpulse1, &c.pointee.maxNormalImpulse1)
            normalPoint(c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, c.pointee.base2, c.pointee.normalMass2,
                        &c.pointee.normalImpulse2, &c.pointee.maxNormalImpulse2)
        }

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
        A.scatter(states, c.pointee.a, c.pointee.mA, trash: trash)
        B.scatter(states, c.pointee.b, c.pointee.mB, trash: trash)
    }
}

extension WideContactSolver {
    /// Copies each lane's impulses to its contact's slot of `impulses` (`found`; padding lanes have
    /// none), for the next step's warm start.
    @inline(__always)
    static func storeImpulses(_ c: UnsafePointer<WideContact>, into impulses: UnsafeMutablePointer<SolvedImpulses>) {
        for l in 0..<4 where c.pointee.found[l] >= 0 {
            impulses[Int(c.pointee.found[l])] = SolvedImpulses(
                p0: PointImpulses(normalImpulse: c.pointee.normalImpulse1[l], tangentImpulse: c.pointee.tangentImpulse1[l],
                                  maxNormalImpulse: c.pointee.maxNormalImpulse1[l]),
                p1: PointImpulses(normalImpulse: c.pointee.normalImpulse2[l], tangentImpulse: c.pointee.tangentImpulse2[l],
                                  maxNormalImpulse: c.pointee.maxNormalImpulse2[l]))
        }
    }

    /// Restitution for four lanes, point by point as the scalar solver does it: a point bounces
    /// when it approached faster than `threshold` (pt/s) and took an impulse in the sub-steps.
    static func applyRestitution(_ c: UnsafeMutablePointer<WideContact>, _ states: UnsafeMutablePointer<BodyState>, threshold: Float,
                                 trash: Int32) {
        let e = c.pointee.restitution
        let zero = SIMD4<Float>.zero
        if all(e .== zero) { return }
        var A = WideBodies(states, c.pointee.a)
        var B = WideBodies(states, c.pointee.b)
        let nx = c.pointee.nx, ny = c.pointee.ny
        let mA = c.pointee.mA, iA = c.pointee.iA, mB = c.pointee.mB, iB = c.pointee.iB
        let minApproach = SIMD4<Float>(repeating: -threshold)
        @inline(__always)
        func point(_ rAx: SIMD4<Float>, _ rAy: SIMD4<Float>, _ rBx: SIMD4<Float>, _ rBy: SIMD4<Float>, _ normalMass: SIMD4<Float>,
                   _ relativeVelocity: SIMD4<Float>, _ accumulated: inout SIMD4<Float>, _ maxImpulse: inout SIMD4<Float>) {
            let active = (e .!= zero) .& (relativeVelocity .<= minApproach) .& (maxImpulse .!= zero)
            if !any(active) { return }
            let dvx = (B.vx - B.w * rBy) - (A.vx - A.w * rAy)
            let dvy = (B.vy + B.w * rBx) - (A.vy + A.w * rAx)
            let vn = dvx * nx + dvy * ny
            let trial = -normalMass * (vn + e * relativeVelocity)
            let newImpulse = vmax(accumulated + trial, zero)
            var impulse = newImpulse - accumulated
            impulse.replace(with: zero, where: .!active)
            accumulated.replace(with: newImpulse, where: active)
            maxImpulse.replace(with: vmax(maxImpulse, impulse), where: active)
            let px = impulse * nx, py = impulse * ny
            A.vx -= mA * px; A.vy -= mA * py
            A.w -= iA * (rAx * py - rAy * px)
            B.vx += mB * px; B.vy += mB * py
            B.w += iB * (rBx * py - rBy * px)
        }
        point(c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, c.pointee.normalMass1, c.pointee.relativeVelocity1,
              &c.pointee.normalImpulse1, &c.pointee.maxNormalImpulse1)
        point(c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, c.pointee.normalMass2, c.pointee.relativeVelocity2,
              &c.pointee.normalImpulse2, &c.pointee.maxNormalImpulse2)
        A.scatter(states, c.pointee.a, c.pointee.mA, trash: trash)
        B.scatter(states, c.pointee.b, c.pointee.mB, trash: trash)
    }
}

@inline(__always) func vmax(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .> a) }
@inline(__always) func vmin(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }
