// Joint solvers. Every joint follows the same pattern as contacts: `prepare` once per step (masses,
// anchors relative to the centres of mass in world orientation, the centre offset and relative angle
// at the start of the step), then per sub-step `warmStart`, `solve(useBias: true)` and, after the
// positions move, `solve(useBias: false)` (relax). Position errors are measured from the bodies'
// delta positions and rotations, so no joint needs the bodies' absolute transforms in a sub-step.
//
// This file is the one switch over the kinds (Box2D v3 keeps the same split: joint.c dispatches,
// revolute_joint.c and its siblings solve). Each kind's prepare, warm start and solve live in its
// own file: DistanceJoint.swift, RevoluteJoint.swift, PrismaticJoint.swift, WeldJoint.swift,
// TargetJoint.swift; the point constraint that three of them share is in PointConstraint.swift and
// the spring load bound in JointSolver+SpringLoad.swift.

struct JointContext {
    var h: Float
    var invH: Float
    var jointSoftness: Softness
}

/// A joint's two bodies as one sub-step sees them: the velocities the joint changes, the anchors
/// rotated by the bodies' rotation since the step began, and their masses. Loaded once per joint
/// and pass by ``JointSolver``; written back only to the bodies the joint may write (see
/// ``JointSim/writesA``).
struct JointBodies {
    /// Linear (pt/s) and angular (rad/s) velocities, updated by the joint.
    var vA: Vec2, wA: Float, vB: Vec2, wB: Float
    /// The bodies' state at the start of the pass (read for `dp`, `dq`).
    let stateA: BodyState, stateB: BodyState
    /// The anchors relative to the centres of mass, in the current orientation (pt).
    let rA: Vec2, rB: Vec2
    /// Inverse masses (1/mass) and inverse rotational inertias (1/(mass·pt²)); zero for a fixed body.
    let mA: Float, iA: Float, mB: Float, iB: Float

    @inline(__always)
    init(_ j: UnsafePointer<JointSim>, _ sA: BodyState, _ sB: BodyState) {
        stateA = sA; stateB = sB
        vA = sA.v; wA = sA.w; vB = sB.v; wB = sB.w
        mA = j.pointee.mA; iA = j.pointee.iA; mB = j.pointee.mB; iB = j.pointee.iB
        rA = sA.dq.rotate(j.pointee.rA); rB = sB.dq.rotate(j.pointee.rB)
    }

    /// Anchor B minus anchor A now (pt): the start-of-step offset plus the bodies' motion since.
    @inline(__always)
    func separation(_ j: UnsafePointer<JointSim>) -> Vec2 {
        (stateB.dp - stateA.dp) + j.pointee.deltaCenter + rB - rA
    }

    /// B's angle relative to A's, less the reference angle (rad). Only springs, limits and welds
    /// need it: an atan2 per joint per pass is not free.
    @inline(__always)
    func angle(_ j: UnsafePointer<JointSim>) -> Float {
        j.pointee.deltaAngle + relativeAngle(stateA.dq, stateB.dq)
    }

    /// Applies impulse `P` (mass·pt/s) at the anchors: −P to A, +P to B.
    @inline(__always)
    mutating func apply(_ P: Vec2) {
        vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
    }

    /// Applies impulse `P` at the anchors and the angular impulse `angular` (mass·pt²/s) on top,
    /// as the warm starts of the point joints do.
    @inline(__always)
    mutating func apply(_ P: Vec2, angular: Float) {
        vA -= mA * P; wA -= iA * (cross(rA, P) + angular)
        vB += mB * P; wB += iB * (cross(rB, P) + angular)
    }

    /// Applies the angular impulse `impulse` (mass·pt²/s): −impulse to A, +impulse to B.
    @inline(__always)
    mutating func applyAngular(_ impulse: Float) {
        wA -= iA * impulse; wB += iB * impulse
    }
}

enum JointSolver {
    /// Fills `out` for joint `j`: the definition's solver fields, the impulses (for the warm
    /// start) and the per-step data. Reads the joint and the bodies, writes only `out`.
    static func prepare(_ j: UnsafePointer<Joint>, into out: UnsafeMutablePointer<JointSim>, bodies: UnsafePointer<Body>,
                        joints: UnsafePointer<Joint>, sims: UnsafePointer<BodyStepData>, dummy: Int32, ctx: JointContext) {
        let bA = bodies[Int(j.pointee.bodyA)], bB = bodies[Int(j.pointee.bodyB)]
        var s = JointSim()
        let kind = j.pointee.def.kind
        s.kind = kind
        s.enableSpring = j.pointee.def.enableSpring
        s.enableLimit = j.pointee.def.enableLimit
        s.enableMotor = j.pointee.def.enableMotor
        s.length = j.pointee.def.length
        s.minLength = j.pointee.def.minLength
        s.maxLength = j.pointee.def.maxLength
        s.hertz = j.pointee.def.hertz
        s.motorSpeed = j.pointee.def.motorSpeed
        s.maxMotorTorque = j.pointee.def.maxMotorTorque
        s.maxForce = j.pointee.def.maxForce

        s.indexA = bA.awakeIndex >= 0 ? bA.awakeIndex : dummy
        s.indexB = bB.awakeIndex >= 0 ? bB.awakeIndex : dummy
        s.mA = sims[Int(s.indexA)].invMass; s.iA = sims[Int(s.indexA)].invI
        s.mB = sims[Int(s.indexB)].invMass; s.iB = sims[Int(s.indexB)].invI
        s.writesA = sims[Int(s.indexA)].isDynamic && kind != .target   // a target joint's A is the world
        s.writesB = sims[Int(s.indexB)].isDynamic
        let qA = bA.transform.q, qB = bB.transform.q
        s.rA = qA.rotate(j.pointee.def.localAnchorA - bA.localCenter)
        s.rB = qB.rotate(j.pointee.def.localAnchorB - bB.localCenter)
        s.deltaCenter = bB.center - bA.center
        s.deltaAngle = unwindAngle(relativeAngle(qA, qB) - j.pointee.def.referenceAngle)
        s.axisA = qA.rotate(j.pointee.def.localAxisA)
        let k = s.iA + s.iB
        s.axialMass = k > 0 ? 1 / k : 0   // the angular mass; the distance and prismatic joints replace it
        s.linearSoftness = ctx.jointSoftness
        s.angularSoftness = ctx.jointSoftness
        s.impulses = j.pointee.impulses

        switch kind {
        case .distance: DistanceJoint.prepare(&s, j, bodies: bodies, joints: joints, ctx: ctx)
        case .revolute: RevoluteJoint.prepare(&s, j, bodies: bodies, joints: joints, ctx: ctx)
        case .prismatic: PrismaticJoint.prepare(&s, j)
        case .weld: WeldJoint.prepare(&s, j, bodies: bodies, joints: joints, ctx: ctx)
        case .target: TargetJoint.prepare(&s, j, bodyB: bB, ctx: ctx)
        }
        out.initialize(to: s)
    }

    /// Carries the impulses of `s` back to its joint for the next step's warm start. A non-finite
    /// impulse (a numerical blow-up the bodies were already protected from in `finalizeBodies`)
    /// is not carried over: all of the joint's impulses restart from zero.
    @inline(__always)
    static func storeImpulses(_ s: UnsafePointer<JointSim>, into j: UnsafeMutablePointer<Joint>) {
        let impulses = s.pointee.impulses
        j.pointee.impulses = impulses.isFinite ? impulses : JointImpulses()
    }

    /// Applies the impulses carried over from the last step (or the last sub-step) to the bodies.
    static func warmStart(_ j: UnsafeMutablePointer<JointSim>, _ states: UnsafeMutablePointer<BodyState>) {
        let a = Int(j.pointee.indexA), b = Int(j.pointee.indexB)
        var p = JointBodies(j, states[a], states[b])
        switch j.pointee.kind {
        case .distance: DistanceJoint.warmStart(j, &p)
        case .revolute: RevoluteJoint.warmStart(j, &p)
        case .prismatic: PrismaticJoint.warmStart(j, &p)
        case .weld: WeldJoint.warmStart(j, &p)
        case .target: TargetJoint.warmStart(j, &p)
        }
        store(j, p, states)
    }

    /// One pass over joint `j`: with `useBias` a solve pass (velocity and position error), without
    /// it a relax pass (velocity error only, after the positions moved).
    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ states: UnsafeMutablePointer<BodyState>, ctx: JointContext, useBias: Bool) {
        let a = Int(j.pointee.indexA), b = Int(j.pointee.indexB)
        var p = JointBodies(j, states[a], states[b])
        switch j.pointee.kind {
        case .distance: DistanceJoint.solve(j, &p, ctx: ctx, useBias: useBias)
        case .revolute: RevoluteJoint.solve(j, &p, ctx: ctx, useBias: useBias)
        case .prismatic: PrismaticJoint.solve(j, &p, ctx: ctx, useBias: useBias)
        case .weld: WeldJoint.solve(j, &p, ctx: ctx, useBias: useBias)
        case .target: TargetJoint.solve(j, &p, ctx: ctx)
        }
        store(j, p, states)
    }

    /// Writes the velocities back to the bodies the joint may write (only dynamic ones, so the
    /// joints of one colour never write a shared body).
    @inline(__always)
    static func store(_ j: UnsafePointer<JointSim>, _ p: JointBodies, _ states: UnsafeMutablePointer<BodyState>) {
        if j.pointee.writesA { states[Int(j.pointee.indexA)].v = p.vA; states[Int(j.pointee.indexA)].w = p.wA }
        if j.pointee.writesB { states[Int(j.pointee.indexB)].v = p.vB; states[Int(j.pointee.indexB)].w = p.wB }
    }

    /// The bias, mass scale and impulse scale of one side of a limit at position error `C` (pt or
    /// rad; positive while inside the limit): inside, only the speed that would close the gap
    /// within the sub-step is removed (a speculative limit); past it, the soft step pushes back
    /// in the solve passes, and the relax passes hold the velocity rigidly.
    @inline(__always)
    static func limitTerms(_ C: Float, _ soft: Softness, ctx: JointContext, useBias: Bool) -> (bias: Float, massScale: Float, impulseScale: Float) {
        var bias: Float = 0, ms: Float = 1, isc: Float = 0
        if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
        return (bias, ms, isc)
    }
}
