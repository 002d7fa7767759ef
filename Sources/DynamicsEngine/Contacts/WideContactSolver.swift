#if !DYNAMICS_WIDE8
/// One float per lane of a wide contact constraint: four lanes (SSE2's width), the default.
///
/// Built for a CPU with AVX2, `-Xswiftc -DDYNAMICS_WIDE8` makes it eight lanes (Box2D v3's AVX2
/// width; README, "Building for your CPU"). Without AVX, LLVM splits each eight-lane operation in
/// two and the solver's two gathered bodies no longer fit in the 16 SSE registers: the default
/// build at eight lanes ran 6 % more instructions on large_pyramid (1.28 G against 1.21 G over 30
/// steps, callgrind), so the width is a build choice. A lane's arithmetic is the same at either
/// width, so the results are too.
typealias Lanes = SIMD4<Float>
/// One body index per lane of a wide contact constraint (`Lanes`' width).
typealias LaneIndices = SIMD4<Int32>
#else
/// One float per lane of a wide contact constraint: eight lanes, built with `-Xswiftc -DDYNAMICS_WIDE8`
/// (for a CPU with AVX2; see the four-lane default).
typealias Lanes = SIMD8<Float>
/// One body index per lane of a wide contact constraint (`Lanes`' width).
typealias LaneIndices = SIMD8<Int32>
#endif

/// The width of the wide contact solver, fixed when the engine is built.
enum WideLane {
    /// Contacts solved at once per wide constraint: 4, or 8 when built with `DYNAMICS_WIDE8`.
    static let count = Lanes.scalarCount
    /// Bytes from one lane of a field to the next field (every field of `WideContact` is one `Lanes`
    /// or `LaneIndices`, four bytes a lane).
    static let fieldStride = MemoryLayout<Lanes>.stride
    /// Wide constraints per parallel block of the preparation and of storing impulses: as many
    /// contacts as `SplitSize.wideConstraints` four-lane constraints, whatever the width.
    static let prepareSplit = max(1, SplitSize.wideConstraints * 4 / count)
    /// The fewest wide constraints a thread claims at a time in the sub-steps
    /// (`WorkerPool.runProgram`): as many contacts as `SplitSize.wideSolveUnit` four-lane
    /// constraints, whatever the width.
    static let solveUnit = max(1, SplitSize.wideSolveUnit * 4 / count)
    /// The most wide constraints a thread claims at a time in the sub-steps: as many contacts as
    /// `SplitSize.wideSolvePieceLimit` four-lane constraints, whatever the width.
    static let solvePieceLimit = max(1, SplitSize.wideSolvePieceLimit * 4 / count)
}

extension World {
    /// How many contacts the engine's contact solver handles at once (its SIMD lanes): 4, or 8 when
    /// the engine is built with `-Xswiftc -DDYNAMICS_WIDE8`. Fixed at build time; `bench` prints it.
    package static var contactLaneCount: Int { WideLane.count }
}

/// `WideLane.count` contact constraints of one colour, stored lane by lane (structure of arrays),
/// solved at once with `Lanes` — Box2D v3's "wide" contacts.
///
/// A colour holds no dynamic body twice, so the lanes never write the same dynamic body: the
/// solver gathers the bodies' velocities and delta poses, solves all lanes, and scatters the
/// velocities back. Static bodies (and padding lanes) point at the shared zero record with zero
/// mass, so their writes change nothing. A one-point manifold leaves its second point with zero
/// mass, which makes every impulse of that point zero. Each lane does the same float operations
/// whatever the width and whichever lanes it shares a constraint with, so how a colour's contacts
/// are grouped changes no result (`WideLaneTests`).
struct WideContact {
    var a: LaneIndices = .zero
    var b: LaneIndices = .zero
    var nx: Lanes = .zero, ny: Lanes = .zero
    var friction: Lanes = .zero
    var mA: Lanes = .zero, iA: Lanes = .zero, mB: Lanes = .zero, iB: Lanes = .zero
    var biasRate: Lanes = .zero, massScale: Lanes = .zero, impulseScale: Lanes = .zero
    // point 1
    var rA1x: Lanes = .zero, rA1y: Lanes = .zero, rB1x: Lanes = .zero, rB1y: Lanes = .zero
    var base1: Lanes = .zero, normalMass1: Lanes = .zero, tangentMass1: Lanes = .zero
    var normalImpulse1: Lanes = .zero, tangentImpulse1: Lanes = .zero, maxNormalImpulse1: Lanes = .zero
    // point 2
    var rA2x: Lanes = .zero, rA2y: Lanes = .zero, rB2x: Lanes = .zero, rB2y: Lanes = .zero
    var base2: Lanes = .zero, normalMass2: Lanes = .zero, tangentMass2: Lanes = .zero
    var normalImpulse2: Lanes = .zero, tangentImpulse2: Lanes = .zero, maxNormalImpulse2: Lanes = .zero

    /// Makes one lane of `w` and of its extras `x` a padding lane, in place: a constraint on the
    /// shared zero body `dummy` with zero mass, so it applies no impulse. Every field is
    /// `WideLane.count` lanes of four bytes, so the lane is zeroed field by field.
    @inline(__always)
    static func padLane(_ w: UnsafeMutablePointer<WideContact>, _ x: UnsafeMutablePointer<WideContactExtras>, _ lane: Int,
                        dummy: Int32) {
        let raw = UnsafeMutableRawPointer(w)
        for field in 0..<(MemoryLayout<WideContact>.size / WideLane.fieldStride) {
            raw.storeBytes(of: 0 as Float, toByteOffset: WideLane.fieldStride &* field &+ 4 &* lane, as: Float.self)
        }
        let a = MemoryLayout<WideContact>.offset(of: \.a)!, b = MemoryLayout<WideContact>.offset(of: \.b)!
        let massScale = MemoryLayout<WideContact>.offset(of: \.massScale)!
        raw.storeBytes(of: dummy, toByteOffset: a &+ 4 &* lane, as: Int32.self)
        raw.storeBytes(of: dummy, toByteOffset: b &+ 4 &* lane, as: Int32.self)
        raw.storeBytes(of: 1 as Float, toByteOffset: massScale &+ 4 &* lane, as: Float.self)
        let extras = UnsafeMutableRawPointer(x)
        for field in 0..<(MemoryLayout<WideContactExtras>.size / WideLane.fieldStride) {
            extras.storeBytes(of: 0 as Float, toByteOffset: WideLane.fieldStride &* field &+ 4 &* lane, as: Float.self)
        }
        // a well-formed (if unused) block: no division by zero in the lanes nobody reads
        for field in [\WideContactExtras.k11, \WideContactExtras.k22] {
            extras.storeBytes(of: 1 as Float, toByteOffset: MemoryLayout<WideContactExtras>.offset(of: field)! &+ 4 &* lane,
                              as: Float.self)
        }
        // no contact to store into
        let found = MemoryLayout<WideContactExtras>.offset(of: \.found)!
        extras.storeBytes(of: -1 as Int32, toByteOffset: found &+ 4 &* lane, as: Int32.self)
    }

    /// Prepares one lane straight from its contact's input, with the scalar preparation's arithmetic
    /// (`ContactSolver.preparePoint`). Building scalar constraints and then transposing them
    /// cost about as much again as the arithmetic. A one-point manifold's second point is zero (zero
    /// mass: no impulse). Every field of the lane is written, so the constraint needs no clearing
    /// first. Each value is stored into its lane in place: a mutating method with a variable lane
    /// index would copy the whole constraint in and out per lane.
    @inline(__always)
    static func prepareLane(_ w: UnsafeMutablePointer<WideContact>, _ x: UnsafeMutablePointer<WideContactExtras>, _ lane: Int,
                            _ input: UnsafePointer<ContactInput>,
                            sims: UnsafePointer<BodyStepData>, states: UnsafePointer<BodyState>, softness: Softness,
                            block blockSolve: Bool) {
        let offset = 4 &* lane
        @inline(__always) func put(_ field: UnsafeMutablePointer<Lanes>, _ x: Float) {
            UnsafeMutableRawPointer(field).storeBytes(of: x, toByteOffset: offset, as: Float.self)
        }
        @inline(__always) func put(_ field: UnsafeMutablePointer<LaneIndices>, _ x: Int32) {
            UnsafeMutableRawPointer(field).storeBytes(of: x, toByteOffset: offset, as: Int32.self)
        }
        let sc = input.pointee.solved
        let n = input.pointee.normal
        let sa = sims[Int(sc.a)], sb = sims[Int(sc.b)]
        let mA = sa.invMass, iA = sa.invI, mB = sb.invMass, iB = sb.invI
        let vA = states[Int(sc.a)].v, wA = states[Int(sc.a)].w
        let vB = states[Int(sc.b)].v, wB = states[Int(sc.b)].w
        put(&w.pointee.a, sc.a); put(&w.pointee.b, sc.b); put(&x.pointee.found, input.pointee.found)
        put(&w.pointee.nx, n.x); put(&w.pointee.ny, n.y)
        put(&w.pointee.friction, input.pointee.friction); put(&x.pointee.restitution, input.pointee.restitution)
        put(&w.pointee.mA, mA); put(&w.pointee.iA, iA); put(&w.pointee.mB, mB); put(&w.pointee.iB, iB)
        put(&w.pointee.biasRate, softness.biasRate); put(&w.pointee.massScale, softness.massScale)
        put(&w.pointee.impulseScale, softness.impulseScale)
        /// One manifold point into the lane of its ten fields (point 1's or point 2's); zeros for a
        /// point the manifold does not have.
        @inline(__always)
        func putPoint(_ point: InputPoint?, _ rAx: UnsafeMutablePointer<Lanes>, _ rAy: UnsafeMutablePointer<Lanes>,
                      _ rBx: UnsafeMutablePointer<Lanes>, _ rBy: UnsafeMutablePointer<Lanes>,
                      _ base: UnsafeMutablePointer<Lanes>, _ normalMass: UnsafeMutablePointer<Lanes>,
                      _ tangentMass: UnsafeMutablePointer<Lanes>, _ normalImpulse: UnsafeMutablePointer<Lanes>,
                      _ tangentImpulse: UnsafeMutablePointer<Lanes>, _ relativeVelocity: UnsafeMutablePointer<Lanes>) {
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
                 &w.pointee.tangentImpulse1, &x.pointee.relativeVelocity1)
        putPoint(pointCount > 1 ? input.pointee.p1 : nil, &w.pointee.rA2x, &w.pointee.rA2y, &w.pointee.rB2x, &w.pointee.rB2y,
                 &w.pointee.base2, &w.pointee.normalMass2, &w.pointee.tangentMass2, &w.pointee.normalImpulse2,
                 &w.pointee.tangentImpulse2, &x.pointee.relativeVelocity2)
        guard blockSolve else { return }
        let block = ContactBlock(pointCount: pointCount, input.pointee.p0, input.pointee.p1, normal: n, mA: mA, iA: iA, mB: mB, iB: iB,
                                 isStaticPair: sc.isStaticPair)
        put(&x.pointee.k11, block.k11); put(&x.pointee.k22, block.k22); put(&x.pointee.k12, block.k12)
        put(&x.pointee.pair, block.isPair ? 1 : 0)
    }
}

/// The fields of a wide constraint that the sub-steps' solve does not read, beside it in an array
/// of their own (`SolverScratch.wideExtras`, the same index): where each lane's impulses are
/// stored, restitution's inputs, and the block solve's coupling.
///
/// Why apart: the preparation writes every wide constraint and each sub-step reads it whole, and
/// on the large scenes the constraints outgrow the caches (many_pyramids: 14 500 of them); these
/// 128 bytes made every constraint 640 bytes instead of 512 (padding 64 more cost many_pyramids
/// 1–3 %). The block solve reads its fields here (it is off by default); restitution and the
/// impulses' store read theirs once a step.
struct WideContactExtras {
    /// Each lane's place in the step's contact order (`ContactInput.found`), where its impulses are
    /// stored; −1 in a padding lane.
    var found: LaneIndices = .zero
    // restitution's (in the first cache line with `found`, which every step writes anyway)
    var restitution: Lanes = .zero, relativeVelocity1: Lanes = .zero, relativeVelocity2: Lanes = .zero
    // the two points' coupling, for the block solve (`ContactBlock`): the normal masses' inverses and
    // the off-diagonal term; `pair` is 1 where both points are solved together, 0 where they are
    // solved one after the other (a contact between moving bodies, one point, or two too close to
    // tell apart); written only when the block solve is on
    var k11: Lanes = .zero, k22: Lanes = .zero, k12: Lanes = .zero, pair: Lanes = .zero
}

extension WideContact {
    /// Prepares every lane of `w` from `inputs[0..<WideLane.count]` at once: the arithmetic of
    /// `prepareLane` (`ContactSolver.preparePoint`), each operation in the same order, done on
    /// the lanes in vector registers, and each field stored whole. Lane by lane, the four
    /// divisions and about forty stores per contact were most of the preparation.
    @inline(__always)
    static func prepareAll(
        _ w: UnsafeMutablePointer<WideContact>, _ x: UnsafeMutablePointer<WideContactExtras>,
        _ inputs: UnsafePointer<ContactInput>, sims: UnsafePointer<BodyStepData>, states: UnsafePointer<BodyState>, softness: Softness,
        staticSoftness: Softness, block blockSolve: Bool
    ) {
        /// What one lane reads: its contact's inputs and its bodies' masses and velocities.
        struct LaneInput {
            var a: Int32, b: Int32, found: Int32, pointCount: Int32, isStatic: Int32
            var nx: Float, ny: Float, friction: Float, restitution: Float
            var mA: Float, iA: Float, mB: Float, iB: Float
            var vAx: Float, vAy: Float, wA: Float, vBx: Float, vBy: Float, wB: Float
            var p1: InputPoint, p2: InputPoint
        }
        @inline(__always)
        func laneInput(_ l: Int) -> LaneInput {
            let input = inputs + l
            let sc = input.pointee.solved
            let sa = sims + Int(sc.a), sb = sims + Int(sc.b)
            let ta = states + Int(sc.a), tb = states + Int(sc.b)
            return LaneInput(
                a: sc.a, b: sc.b, found: input.pointee.found, pointCount: input.pointee.pointCount,
                isStatic: sc.isStaticPair ? 1 : 0,
                nx: input.pointee.normal.x, ny: input.pointee.normal.y,
                friction: input.pointee.friction, restitution: input.pointee.restitution,
                mA: sa.pointee.invMass, iA: sa.pointee.invI, mB: sb.pointee.invMass, iB: sb.pointee.invI,
                vAx: ta.pointee.v.x, vAy: ta.pointee.v.y, wA: ta.pointee.w,
                vBx: tb.pointee.v.x, vBy: tb.pointee.v.y, wB: tb.pointee.w,
                p1: input.pointee.p0, p2: input.pointee.p1)
        }
        // Each field's lanes built from the lanes' records at once (a loop storing lane by lane
        // into vectors went through the stack once per field and lane).
        #if !DYNAMICS_WIDE8
            let r = (laneInput(0), laneInput(1), laneInput(2), laneInput(3))
            @inline(__always) func lanes(_ f: (LaneInput) -> Float) -> Lanes { Lanes(f(r.0), f(r.1), f(r.2), f(r.3)) }
            @inline(__always) func indices(_ f: (LaneInput) -> Int32) -> LaneIndices {
                LaneIndices(f(r.0), f(r.1), f(r.2), f(r.3))
            }
        #else
            let r = (
                laneInput(0), laneInput(1), laneInput(2), laneInput(3),
                laneInput(4), laneInput(5), laneInput(6), laneInput(7)
            )
            @inline(__always) func lanes(_ f: (LaneInput) -> Float) -> Lanes {
                Lanes(f(r.0), f(r.1), f(r.2), f(r.3), f(r.4), f(r.5), f(r.6), f(r.7))
            }
            @inline(__always) func indices(_ f: (LaneInput) -> Int32) -> LaneIndices {
                LaneIndices(f(r.0), f(r.1), f(r.2), f(r.3), f(r.4), f(r.5), f(r.6), f(r.7))
            }
        #endif
        /// A manifold point's inputs, lane by lane.
        struct Points {
            var rAx: Lanes, rAy: Lanes, rBx: Lanes, rBy: Lanes
            var separation: Lanes, normalImpulse: Lanes, tangentImpulse: Lanes
        }
        @inline(__always)
        func points(_ p: (LaneInput) -> InputPoint) -> Points {
            Points(
                rAx: lanes { p($0).anchorA.x }, rAy: lanes { p($0).anchorA.y },
                rBx: lanes { p($0).anchorB.x }, rBy: lanes { p($0).anchorB.y },
                separation: lanes { p($0).separation }, normalImpulse: lanes { p($0).normalImpulse },
                tangentImpulse: lanes { p($0).tangentImpulse })
        }
        let a = indices { $0.a }, b = indices { $0.b }, found = indices { $0.found }
        let pointCount = indices { $0.pointCount }, isStatic = indices { $0.isStatic }
        let nx = lanes { $0.nx }, ny = lanes { $0.ny }
        let friction = lanes { $0.friction }, restitution = lanes { $0.restitution }
        let mA = lanes { $0.mA }, iA = lanes { $0.iA }, mB = lanes { $0.mB }, iB = lanes { $0.iB }
        let vAx = lanes { $0.vAx }, vAy = lanes { $0.vAy }, wA = lanes { $0.wA }
        let vBx = lanes { $0.vBx }, vBy = lanes { $0.vBy }, wB = lanes { $0.wB }
        let p1 = points { $0.p1 }, p2 = points { $0.p2 }
        let zero = Lanes.zero
        let staticLanes = isStatic .!= LaneIndices.zero
        w.pointee.a = a; w.pointee.b = b; x.pointee.found = found
        w.pointee.nx = nx; w.pointee.ny = ny; w.pointee.friction = friction; x.pointee.restitution = restitution
        w.pointee.mA = mA; w.pointee.iA = iA; w.pointee.mB = mB; w.pointee.iB = iB
        w.pointee.biasRate = Lanes(repeating: softness.biasRate)
            .replacing(with: Lanes(repeating: staticSoftness.biasRate), where: staticLanes)
        w.pointee.massScale = Lanes(repeating: softness.massScale)
            .replacing(with: Lanes(repeating: staticSoftness.massScale), where: staticLanes)
        w.pointee.impulseScale = Lanes(repeating: softness.impulseScale)
            .replacing(with: Lanes(repeating: staticSoftness.impulseScale), where: staticLanes)
        w.pointee.maxNormalImpulse1 = zero; w.pointee.maxNormalImpulse2 = zero
        // the tangent is the normal's right perpendicular, (ny, −nx)
        let tx = ny, ty = -nx
        /// One point's fields, zero in the lanes whose manifold lacks the point (`present`).
        @inline(__always)
        func point(_ p: Points, _ present: SIMDMask<LaneIndices.MaskStorage>)
            -> (
                rAx: Lanes, rAy: Lanes, rBx: Lanes, rBy: Lanes, base: Lanes, normalMass: Lanes, tangentMass: Lanes,
                normalImpulse: Lanes, tangentImpulse: Lanes, relativeVelocity: Lanes
            )
        {
            let rAx = p.rAx, rAy = p.rAy, rBx = p.rBx, rBy = p.rBy
            let base = p.separation - ((rBx - rAx) * nx + (rBy - rAy) * ny)
            let rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx
            let kN = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            let normalMass = (1 / kN).replacing(with: zero, where: .!(kN .> zero))
            let rtA = rAx * ty - rAy * tx, rtB = rBx * ty - rBy * tx
            let kT = mA + mB + iA * rtA * rtA + iB * rtB * rtB
            let tangentMass = (1 / kT).replacing(with: zero, where: .!(kT .> zero))
            let vrAx = vAx + -wA * rAy, vrAy = vAy + wA * rAx
            let vrBx = vBx + -wB * rBy, vrBy = vBy + wB * rBx
            let relativeVelocity = nx * (vrBx - vrAx) + ny * (vrBy - vrAy)
            let absent = .!present  // Float and Int32 lanes share one mask type
            @inline(__always) func kept(_ x: Lanes) -> Lanes { x.replacing(with: zero, where: absent) }
            return (
                kept(rAx), kept(rAy), kept(rBx), kept(rBy), kept(base), kept(normalMass), kept(tangentMass),
                kept(p.normalImpulse), kept(p.tangentImpulse), kept(relativeVelocity)
            )
        }
        let q1 = point(p1, pointCount .> LaneIndices.zero)
        w.pointee.rA1x = q1.rAx; w.pointee.rA1y = q1.rAy; w.pointee.rB1x = q1.rBx; w.pointee.rB1y = q1.rBy
        w.pointee.base1 = q1.base; w.pointee.normalMass1 = q1.normalMass; w.pointee.tangentMass1 = q1.tangentMass
        w.pointee.normalImpulse1 = q1.normalImpulse; w.pointee.tangentImpulse1 = q1.tangentImpulse
        x.pointee.relativeVelocity1 = q1.relativeVelocity
        let q2 = point(p2, pointCount .> LaneIndices(repeating: 1))
        w.pointee.rA2x = q2.rAx; w.pointee.rA2y = q2.rAy; w.pointee.rB2x = q2.rBx; w.pointee.rB2y = q2.rBy
        w.pointee.base2 = q2.base; w.pointee.normalMass2 = q2.normalMass; w.pointee.tangentMass2 = q2.tangentMass
        w.pointee.normalImpulse2 = q2.normalImpulse; w.pointee.tangentImpulse2 = q2.tangentImpulse
        x.pointee.relativeVelocity2 = q2.relativeVelocity
        guard blockSolve else { return }
        for l in 0..<WideLane.count {
            let input = inputs + l
            let block = ContactBlock(
                pointCount: input.pointee.pointCount, input.pointee.p0, input.pointee.p1,
                normal: input.pointee.normal, mA: mA[l], iA: iA[l], mB: mB[l], iB: iB[l],
                isStaticPair: input.pointee.solved.isStaticPair)
            x.pointee.k11[l] = block.k11; x.pointee.k22[l] = block.k22; x.pointee.k12[l] = block.k12
            x.pointee.pair[l] = block.isPair ? 1 : 0
        }
    }
}

/// Gathered state of `WideLane.count` bodies.
///
/// A `BodyState` is two rows of four floats — (vx, vy, w, flags) and (dpx, dpy, qc, qs) — so each
/// four bodies are gathered with eight vector loads and two 4 × 4 transposes (eight lanes are two
/// such halves), and written back one row per body. `flags` is always 0, so it is not kept
/// (`storeRows4`).
struct WideBodies {
    var vx: Lanes, vy: Lanes, w: Lanes
    var dpx: Lanes, dpy: Lanes, qc: Lanes, qs: Lanes

    /// Four bodies' two rows, transposed: (vx, vy, w, flags, dpx, dpy, qc, qs), four lanes each.
    @inline(__always)
    static func gather4(_ raw: UnsafeRawPointer, _ i0: Int32, _ i1: Int32, _ i2: Int32, _ i3: Int32)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        // the indices are never negative: widened without sign (a plain move; a sign extension of
        // the four lanes was ten vector instructions per gather and store)
        let o0 = Int(UInt32(bitPattern: i0)) &* 32, o1 = Int(UInt32(bitPattern: i1)) &* 32
        let o2 = Int(UInt32(bitPattern: i2)) &* 32, o3 = Int(UInt32(bitPattern: i3)) &* 32
        let v0 = raw.loadUnaligned(fromByteOffset: o0, as: SIMD4<Float>.self)
        let v1 = raw.loadUnaligned(fromByteOffset: o1, as: SIMD4<Float>.self)
        let v2 = raw.loadUnaligned(fromByteOffset: o2, as: SIMD4<Float>.self)
        let v3 = raw.loadUnaligned(fromByteOffset: o3, as: SIMD4<Float>.self)
        let p0 = raw.loadUnaligned(fromByteOffset: o0 &+ 16, as: SIMD4<Float>.self)
        let p1 = raw.loadUnaligned(fromByteOffset: o1 &+ 16, as: SIMD4<Float>.self)
        let p2 = raw.loadUnaligned(fromByteOffset: o2 &+ 16, as: SIMD4<Float>.self)
        let p3 = raw.loadUnaligned(fromByteOffset: o3 &+ 16, as: SIMD4<Float>.self)
        return (SIMD4(v0[0], v1[0], v2[0], v3[0]), SIMD4(v0[1], v1[1], v2[1], v3[1]),
                SIMD4(v0[2], v1[2], v2[2], v3[2]), SIMD4(v0[3], v1[3], v2[3], v3[3]),
                SIMD4(p0[0], p1[0], p2[0], p3[0]), SIMD4(p0[1], p1[1], p2[1], p3[1]),
                SIMD4(p0[2], p1[2], p2[2], p3[2]), SIMD4(p0[3], p1[3], p2[3], p3[3]))
    }

    @inline(__always)
    init(_ s: UnsafePointer<BodyState>, _ idx: LaneIndices) {
        let raw = UnsafeRawPointer(s)
        #if !DYNAMICS_WIDE8
        (vx, vy, w, _, dpx, dpy, qc, qs) = WideBodies.gather4(raw, idx[0], idx[1], idx[2], idx[3])
        #else
        // two halves of four (building each lane from eight sources, or transposing 256-bit rows
        // within their halves, took more instructions: callgrind, large_pyramid, AVX2)
        let lo = WideBodies.gather4(raw, idx[0], idx[1], idx[2], idx[3])
        let hi = WideBodies.gather4(raw, idx[4], idx[5], idx[6], idx[7])
        vx = Lanes(lowHalf: lo.0, highHalf: hi.0); vy = Lanes(lowHalf: lo.1, highHalf: hi.1)
        w = Lanes(lowHalf: lo.2, highHalf: hi.2)
        dpx = Lanes(lowHalf: lo.4, highHalf: hi.4); dpy = Lanes(lowHalf: lo.5, highHalf: hi.5)
        qc = Lanes(lowHalf: lo.6, highHalf: hi.6); qs = Lanes(lowHalf: lo.7, highHalf: hi.7)
        #endif
    }

    /// Writes the velocity rows back. Lanes of dynamic bodies (`invMass` > 0) go to their bodies;
    /// the others — static, kinematic and padding lanes, which may share a body with another lane
    /// or another thread and whose velocities never change — go to the scratch record `trash`,
    /// which nothing reads and no other chunk running at the same time writes.
    @inline(__always)
    func scatter(_ s: UnsafeMutablePointer<BodyState>, _ idx: LaneIndices, _ invMass: Lanes, trash: Int32) {
        let target = LaneIndices(repeating: trash).replacing(with: idx, where: invMass .> Lanes.zero)
        WideBodies.storeRows(UnsafeMutableRawPointer(s), target, vx, vy, w)
    }

    /// Four lanes back into four rows, stored at the four targets' velocity rows. The row's fourth
    /// float, `BodyState.flags`, is always 0 and is written as 0: so it is neither gathered nor
    /// held in a register through the solver's kernels (two fewer live values on 16 registers:
    /// 3 % fewer instructions in the sub-steps, callgrind, large_pyramid).
    @inline(__always)
    static func storeRows4(_ raw: UnsafeMutableRawPointer, _ t0: Int32, _ t1: Int32, _ t2: Int32, _ t3: Int32,
                           _ vx: SIMD4<Float>, _ vy: SIMD4<Float>, _ w: SIMD4<Float>) {
        // the targets are never negative: widened without sign (see `gather4`)
        @inline(__always) func row(_ t: Int32) -> Int { Int(UInt32(bitPattern: t)) &* 32 }
        raw.storeBytes(of: SIMD4(vx[0], vy[0], w[0], 0), toByteOffset: row(t0), as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4(vx[1], vy[1], w[1], 0), toByteOffset: row(t1), as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4(vx[2], vy[2], w[2], 0), toByteOffset: row(t2), as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4(vx[3], vy[3], w[3], 0), toByteOffset: row(t3), as: SIMD4<Float>.self)
    }

    /// Transposes the lanes back into rows and stores them. Kept out of line on purpose: inlined,
    /// the optimiser pulls each lane's extraction back through the solver's arithmetic and turns
    /// the vector code into scalar code with many spills (about 40 % more instructions).
    @inline(never)
    static func storeRows(_ raw: UnsafeMutableRawPointer, _ target: LaneIndices, _ vx: Lanes, _ vy: Lanes, _ w: Lanes) {
        #if !DYNAMICS_WIDE8
        storeRows4(raw, target[0], target[1], target[2], target[3], vx, vy, w)
        #else
        // the two halves as four lanes each (Swift passes an eight-lane vector as two halves)
        storeRows4(raw, target[0], target[1], target[2], target[3], vx.lowHalf, vy.lowHalf, w.lowHalf)
        storeRows4(raw, target[4], target[5], target[6], target[7], vx.highHalf, vy.highHalf, w.highHalf)
        #endif
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
        solve(c, nil, states, invH: invH, useBias: useBias, maxPushSpeed: maxPushSpeed, trash: trash)
    }

    /// `solve` with the block solve of static contacts (`WorldDef.blockSolve`), whose coupling it
    /// reads from the constraint's extras `x`. Two entry points: the kernel below takes the path by
    /// whether it was given extras, `nil` in `solve` and not in `solveBlock`, a constant in each, so
    /// the optimiser drops the other path; with the choice made inside, the one loop holding both
    /// paths cost the sequential solve 16 % more instructions (callgrind, large_pyramid).
    @inline(__always)
    static func solveBlock(_ c: UnsafeMutablePointer<WideContact>, _ x: UnsafePointer<WideContactExtras>,
                           _ states: UnsafeMutablePointer<BodyState>, invH: Float, useBias: Bool, maxPushSpeed: Float,
                           trash: Int32) {
        solve(c, x, states, invH: invH, useBias: useBias, maxPushSpeed: maxPushSpeed, trash: trash)
    }

    /// The kernel of `solve` and `solveBlock`: the block solve when `extras` (its coupling) is given.
    @inline(__always)
    private static func solve(_ c: UnsafeMutablePointer<WideContact>, _ extras: UnsafePointer<WideContactExtras>?,
                              _ states: UnsafeMutablePointer<BodyState>, invH: Float, useBias: Bool, maxPushSpeed: Float,
                              trash: Int32) {
        var A = WideBodies(states, c.pointee.a)
        var B = WideBodies(states, c.pointee.b)
        let nx = c.pointee.nx, ny = c.pointee.ny
        let mA = c.pointee.mA, iA = c.pointee.iA, mB = c.pointee.mB, iB = c.pointee.iB
        let one = Lanes(repeating: 1), zero = Lanes.zero
        let biasRate = useBias ? c.pointee.massScale * c.pointee.biasRate : zero
        let massScale = useBias ? c.pointee.massScale : one
        let impulseScale = useBias ? c.pointee.impulseScale : zero
        let invHW = Lanes(repeating: invH)
        let minBias = Lanes(repeating: -maxPushSpeed)
        let dpx = B.dpx - A.dpx, dpy = B.dpy - A.dpy

        /// A point's current separation, from the motion since the step began.
        @inline(always)
        func currentSeparation(_ rAx: Lanes, _ rAy: Lanes, _ rBx: Lanes, _ rBy: Lanes, _ base: Lanes) -> Lanes {
            let rsAx = A.qc * rAx - A.qs * rAy, rsAy = A.qs * rAx + A.qc * rAy
            let rsBx = B.qc * rBx - B.qs * rBy, rsBy = B.qs * rBx + B.qc * rBy
            let dsx = dpx + (rsBx - rsAx), dsy = dpy + (rsBy - rsAy)
            return nx * dsx + ny * dsy + base
        }
        /// One point after the other (Box2D v3), at separation `s`.
        @inline(always)
        func normalPoint(_ A: inout WideBodies, _ B: inout WideBodies, _ rAx: Lanes, _ rAy: Lanes, _ rBx: Lanes, _ rBy: Lanes,
                         _ s: Lanes, _ normalMass: Lanes, _ accumulated: inout Lanes, _ maxImpulse: inout Lanes) {
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
        @inline(always)
        func solveNormalsAsBlock(_ A: inout WideBodies, _ B: inout WideBodies) {
            // Both points' current separations and normal velocities, from the same velocities: the
            // block solve (`ContactBlock`) finds both impulses at once, so a face landing flat takes the
            // same impulse at both ends instead of the first point's share rotating it.
            let rA1x = c.pointee.rA1x, rA1y = c.pointee.rA1y, rB1x = c.pointee.rB1x, rB1y = c.pointee.rB1y
            let rA2x = c.pointee.rA2x, rA2y = c.pointee.rA2y, rB2x = c.pointee.rB2x, rB2y = c.pointee.rB2y
            @inline(always)
            func separation(_ A: WideBodies, _ B: WideBodies, _ rAx: Lanes, _ rAy: Lanes, _ rBx: Lanes, _ rBy: Lanes,
                            _ base: Lanes) -> Lanes {
                let rsAx = A.qc * rAx - A.qs * rAy, rsAy = A.qs * rAx + A.qc * rAy
                let rsBx = B.qc * rBx - B.qs * rBy, rsBy = B.qs * rBx + B.qc * rBy
                return nx * (dpx + (rsBx - rsAx)) + ny * (dpy + (rsBy - rsAy)) + base
            }
            @inline(always)
            func normalVelocity(_ A: WideBodies, _ B: WideBodies, _ rAx: Lanes, _ rAy: Lanes, _ rBx: Lanes, _ rBy: Lanes) -> Lanes {
                let dvx = (B.vx - B.w * rBy) - (A.vx - A.w * rAy)
                let dvy = (B.vy + B.w * rBx) - (A.vy + A.w * rAx)
                return dvx * nx + dvy * ny
            }
            /// A point's bias and mass scale: a speculative point closes its gap exactly (rigid), a
            /// touching one is soft when biased. Its impulse scale is 1 − mass scale (`Softness`).
            @inline(always)
            func softening(_ s: Lanes) -> (bias: Lanes, massScale: Lanes) {
                let speculative = s .> zero
                var bias = vmax(biasRate * s, minBias)
                bias.replace(with: s * invHW, where: speculative)
                var pointMassScale = massScale
                pointMassScale.replace(with: one, where: speculative)
                return (bias, pointMassScale)
            }
            let s1 = softening(separation(A, B, rA1x, rA1y, rB1x, rB1y, c.pointee.base1))
            let s2 = softening(separation(A, B, rA2x, rA2y, rB2x, rB2y, c.pointee.base2))
            let vn1 = normalVelocity(A, B, rA1x, rA1y, rB1x, rB1y), vn2 = normalVelocity(A, B, rA2x, rA2y, rB2x, rB2y)
            let old1 = c.pointee.normalImpulse1, old2 = c.pointee.normalImpulse2
            let x = extras.unsafelyUnwrapped
            let k11 = x.pointee.k11, k22 = x.pointee.k22, k12 = x.pointee.k12
            let pair = x.pointee.pair .> zero
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
        if extras != nil {  // a constant in each entry point, so the optimiser keeps one path
            solveNormalsAsBlock(&A, &B)
        } else {
            // Both separations first: they read only the poses, which the impulses do not change,
            // and the poses' four rows and the position delta are then dead for the rest of the
            // kernel (fewer values live at once on 16 registers).
            let s1 = currentSeparation(c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, c.pointee.base1)
            let s2 = currentSeparation(c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, c.pointee.base2)
            normalPoint(&A, &B, c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, s1, c.pointee.normalMass1,
                        &c.pointee.normalImpulse1, &c.pointee.maxNormalImpulse1)
            normalPoint(&A, &B, c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, s2, c.pointee.normalMass2,
                        &c.pointee.normalImpulse2, &c.pointee.maxNormalImpulse2)
        }

        if !useBias {
            let tx = ny, ty = -nx
            let friction = c.pointee.friction
            @inline(always)
            func frictionPoint(_ A: inout WideBodies, _ B: inout WideBodies, _ rAx: Lanes, _ rAy: Lanes, _ rBx: Lanes, _ rBy: Lanes,
                               _ tangentMass: Lanes, _ normalImpulse: Lanes, _ accumulated: inout Lanes) {
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
            frictionPoint(&A, &B, c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, c.pointee.tangentMass1,
                          c.pointee.normalImpulse1, &c.pointee.tangentImpulse1)
            frictionPoint(&A, &B, c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, c.pointee.tangentMass2,
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
    static func storeImpulses(_ c: UnsafePointer<WideContact>, _ x: UnsafePointer<WideContactExtras>,
                              into impulses: UnsafeMutablePointer<SolvedImpulses>) {
        let found = x.pointee.found
        for l in 0..<WideLane.count where found[l] >= 0 {
            impulses[Int(found[l])] = SolvedImpulses(
                p0: PointImpulses(normalImpulse: c.pointee.normalImpulse1[l], tangentImpulse: c.pointee.tangentImpulse1[l],
                                  maxNormalImpulse: c.pointee.maxNormalImpulse1[l]),
                p1: PointImpulses(normalImpulse: c.pointee.normalImpulse2[l], tangentImpulse: c.pointee.tangentImpulse2[l],
                                  maxNormalImpulse: c.pointee.maxNormalImpulse2[l]))
        }
    }

    /// Restitution for a wide constraint's lanes, point by point as the scalar solver does it: a point bounces
    /// when it approached faster than `threshold` (pt/s) and took an impulse in the sub-steps.
    static func applyRestitution(_ c: UnsafeMutablePointer<WideContact>, _ x: UnsafePointer<WideContactExtras>,
                                 _ states: UnsafeMutablePointer<BodyState>, threshold: Float, trash: Int32) {
        let e = x.pointee.restitution
        let zero = Lanes.zero
        if all(e .== zero) { return }
        var A = WideBodies(states, c.pointee.a)
        var B = WideBodies(states, c.pointee.b)
        let nx = c.pointee.nx, ny = c.pointee.ny
        let mA = c.pointee.mA, iA = c.pointee.iA, mB = c.pointee.mB, iB = c.pointee.iB
        let minApproach = Lanes(repeating: -threshold)
        @inline(always)
        func point(_ A: inout WideBodies, _ B: inout WideBodies, _ rAx: Lanes, _ rAy: Lanes, _ rBx: Lanes, _ rBy: Lanes, _ normalMass: Lanes,
                   _ relativeVelocity: Lanes, _ accumulated: inout Lanes, _ maxImpulse: inout Lanes) {
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
        point(&A, &B, c.pointee.rA1x, c.pointee.rA1y, c.pointee.rB1x, c.pointee.rB1y, c.pointee.normalMass1, x.pointee.relativeVelocity1,
              &c.pointee.normalImpulse1, &c.pointee.maxNormalImpulse1)
        point(&A, &B, c.pointee.rA2x, c.pointee.rA2y, c.pointee.rB2x, c.pointee.rB2y, c.pointee.normalMass2, x.pointee.relativeVelocity2,
              &c.pointee.normalImpulse2, &c.pointee.maxNormalImpulse2)
        A.scatter(states, c.pointee.a, c.pointee.mA, trash: trash)
        B.scatter(states, c.pointee.b, c.pointee.mB, trash: trash)
    }
}

@inline(__always) func vmax(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .> a) }
@inline(__always) func vmin(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .< a) }
