// Joint solvers. Every joint follows the same pattern as contacts: `prepare` once per step (masses,
// anchors relative to the centres of mass in world orientation, the centre offset and relative angle
// at the start of the step), then per sub-step `warmStart`, `solve(useBias: true)` and, after the
// positions move, `solve(useBias: false)` (relax). Position errors are measured from the bodies'
// delta positions and rotations, so no joint needs the bodies' absolute transforms in a sub-step.

struct JointContext {
    var h: Float
    var invH: Float
    var jointSoftness: Softness
}

enum JointSolver {
    /// Fills `out` for joint `j`: the definition's solver fields, the impulses (for the warm
    /// start) and the per-step data. Reads the joint and the bodies, writes only `out`.
    static func prepare(_ j: UnsafePointer<Joint>, into out: UnsafeMutablePointer<JointSim>, bodies: UnsafePointer<Body>,
                        sims: UnsafePointer<BodyStepData>, dummy: Int32, ctx: JointContext) {
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
        if kind == .prismatic {
            s.lower = j.pointee.def.lowerTranslation; s.upper = j.pointee.def.upperTranslation
        } else {
            s.lower = j.pointee.def.lowerAngle; s.upper = j.pointee.def.upperAngle
        }
        s.linearHertz = j.pointee.def.linearHertz
        s.angularHertz = j.pointee.def.angularHertz
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
        s.axialMass = k > 0 ? 1 / k : 0
        s.springSoftness = Softness(hertz: s.hertz, zeta: j.pointee.def.dampingRatio, h: ctx.h)
        s.linearSoftness = s.linearHertz > 0 ? Softness(hertz: s.linearHertz, zeta: j.pointee.def.linearDampingRatio, h: ctx.h) : ctx.jointSoftness
        s.angularSoftness = s.angularHertz > 0 ? Softness(hertz: s.angularHertz, zeta: j.pointee.def.angularDampingRatio, h: ctx.h) : ctx.jointSoftness
        if kind == .distance {
            (s.springGain, s.springDampingGain) = springGains(hertz: s.hertz, zeta: j.pointee.def.dampingRatio, h: ctx.h)
            let d = s.deltaCenter + s.rB - s.rA
            let axis = d.normalized
            let crA = cross(s.rA, axis), crB = cross(s.rB, axis)
            let km = s.mA + s.mB + s.iA * crA * crA + s.iB * crB * crB
            s.axialMass = km > 0 ? 1 / km : 0
        }
        if kind == .target {
            s.axisA = j.pointee.def.target - bB.center
            s.linearSoftness = Softness(hertz: s.hertz, zeta: j.pointee.def.dampingRatio, h: ctx.h)
        }
        s.impulses = j.pointee.impulses
        out.initialize(to: s)
    }

    /// The gains of a distance spring integrated as a force, once per sub-step (symplectic Euler,
    /// damping implicit): Δv = −(h·ω²·C + 2ζω·h·Ċ) / (1 + 2ζω·h) along the spring, for the
    /// effective mass. An undamped spring then keeps its energy (the scheme conserves a nearby
    /// energy exactly: the amplitude neither decays nor grows, the displacement stays within
    /// 1/√(1 − (hω/2)²) of its release, and the frequency is high by (hω)²/24, at most 4 %), which
    /// the soft step does not: it is implicit Euler, and it ran in every solve and relax pass, so a
    /// 2 Hz spring of damping 0 lost half its amplitude in 2 s. The
    /// explicit step is stable for h·ω < 2; beyond h·ω = 1 (38 Hz at 240 sub-steps a second) the
    /// spring falls back to the soft step, which is stable for any stiffness: (0, 0).
    static func springGains(hertz: Float, zeta: Float, h: Float) -> (Float, Float) {
        guard hertz > 0, hertz.isFinite, h > 0, h.isFinite else { return (0, 0) }
        let omega = 2 * Float.pi * hertz
        guard h * omega <= 1 else { return (0, 0) }
        let z = zeta.isFinite ? max(zeta, 0) : 0
        let damping = 2 * z * omega * h
        guard damping.isFinite else { return (0, 0) }
        return (h * omega * omega, damping)
    }

    /// Carries the impulses of `s` back to its joint for the next step's warm start. A non-finite
    /// impulse (a numerical blow-up the bodies were already protected from in `finalizeBodies`)
    /// is not carried over: all of the joint's impulses restart from zero.
    @inline(__always)
    static func storeImpulses(_ s: UnsafePointer<JointSim>, into j: UnsafeMutablePointer<Joint>) {
        let impulses = s.pointee.impulses
        j.pointee.impulses = impulses.isFinite ? impulses : JointImpulses()
    }

    @inline(__always)
    static func apply(_ j: UnsafeMutablePointer<JointSim>, _ states: UnsafeMutablePointer<BodyState>, _ P: Vec2, _ rA: Vec2, _ rB: Vec2, _ angular: Float) {
        let a = Int(j.pointee.indexA), b = Int(j.pointee.indexB)
        if j.pointee.writesA {
            states[a].v -= j.pointee.mA * P
            states[a].w -= j.pointee.iA * (cross(rA, P) + angular)
        }
        if j.pointee.writesB {
            states[b].v += j.pointee.mB * P
            states[b].w += j.pointee.iB * (cross(rB, P) + angular)
        }
    }

    static func warmStart(_ j: UnsafeMutablePointer<JointSim>, _ states: UnsafeMutablePointer<BodyState>) {
        let sA = states[Int(j.pointee.indexA)], sB = states[Int(j.pointee.indexB)]
        let rA = sA.dq.rotate(j.pointee.rA), rB = sB.dq.rotate(j.pointee.rB)
        switch j.pointee.kind {
        case .distance:
            let d = (sB.dp - sA.dp) + j.pointee.deltaCenter + rB - rA
            let axis = d.normalized
            var total = j.pointee.impulses.axial + j.pointee.impulses.lower - j.pointee.impulses.upper
            if j.pointee.springGain > 0 && j.pointee.enableSpring && j.pointee.minLength < j.pointee.maxLength {
                // The explicit spring's force for this sub-step (see `springGains`): here, because
                // the warm start runs once per sub-step and the solve passes several times. Its
                // impulse is not accumulated, so it is never warm started.
                let vr = (sB.v + cross(sB.w, rB)) - (sA.v + cross(sA.w, rA))
                let crA = cross(rA, axis), crB = cross(rB, axis)
                let km = j.pointee.mA + j.pointee.mB + j.pointee.iA * crA * crA + j.pointee.iB * crB * crB
                if km > 0 {
                    let g = j.pointee.springGain, c = j.pointee.springDampingGain
                    total -= (g * (d.length - j.pointee.length) + c * dot(axis, vr)) / ((1 + c) * km)
                }
            }
            apply(j, states, total * axis, rA, rB, 0)
        case .revolute:
            let ang = j.pointee.impulses.angular + j.pointee.impulses.motor + j.pointee.impulses.lower - j.pointee.impulses.upper + j.pointee.impulses.spring
            apply(j, states, j.pointee.impulses.linear, rA, rB, ang)
        case .weld:
            apply(j, states, j.pointee.impulses.linear, rA, rB, j.pointee.impulses.angular)
        case .prismatic:
            let d = (sB.dp - sA.dp) + j.pointee.deltaCenter + rB - rA
            let axis = sA.dq.rotate(j.pointee.axisA)
            let perp = axis.leftPerp
            let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
            let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
            let axial = j.pointee.impulses.axial + j.pointee.impulses.motor + j.pointee.impulses.lower - j.pointee.impulses.upper
            let P = axial * axis + j.pointee.impulses.linear.x * perp
            let LA = axial * a1 + j.pointee.impulses.linear.x * s1 + j.pointee.impulses.linear.y
            let LB = axial * a2 + j.pointee.impulses.linear.x * s2 + j.pointee.impulses.linear.y
            let a = Int(j.pointee.indexA), b = Int(j.pointee.indexB)
            if j.pointee.writesA { states[a].v -= j.pointee.mA * P; states[a].w -= j.pointee.iA * LA }
            if j.pointee.writesB { states[b].v += j.pointee.mB * P; states[b].w += j.pointee.iB * LB }
        case .target:
            let b = Int(j.pointee.indexB)
            if j.pointee.writesB {
                states[b].v += j.pointee.mB * j.pointee.impulses.linear
                states[b].w += j.pointee.iB * cross(rB, j.pointee.impulses.linear)
            }
        }
    }

    /// Solves a 2×2 point constraint `K · x = b` for anchors rA, rB.
    @inline(__always)
    static func solvePoint(_ mA: Float, _ mB: Float, _ iA: Float, _ iB: Float, _ rA: Vec2, _ rB: Vec2, _ b: Vec2) -> Vec2 {
        let k11 = mA + mB + rA.y * rA.y * iA + rB.y * rB.y * iB
        let k12 = -rA.y * rA.x * iA - rB.y * rB.x * iB
        let k22 = mA + mB + rA.x * rA.x * iA + rB.x * rB.x * iB
        var det = k11 * k22 - k12 * k12
        if det != 0 { det = 1 / det }
        return Vec2(det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k12 * b.x))
    }

    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ states: UnsafeMutablePointer<BodyState>, ctx: JointContext, useBias: Bool) {
        let a = Int(j.pointee.indexA), b = Int(j.pointee.indexB)
        let sA = states[a], sB = states[b]
        var vA = sA.v, wA = sA.w, vB = sB.v, wB = sB.w
        let mA = j.pointee.mA, iA = j.pointee.iA, mB = j.pointee.mB, iB = j.pointee.iB
        let rA = sA.dq.rotate(j.pointee.rA), rB = sB.dq.rotate(j.pointee.rB)
        let d = (sB.dp - sA.dp) + j.pointee.deltaCenter + rB - rA
        // Only springs, limits and welds need the angle: an atan2 per joint per pass is not free.
        @inline(__always) func jointAngle() -> Float { j.pointee.deltaAngle + relativeAngle(sA.dq, sB.dq) }
        let soft = ctx.jointSoftness

        switch j.pointee.kind {
        case .distance:
            let length = d.length
            let axis = d.normalized
            let crA = cross(rA, axis), crB = cross(rB, axis)
            let km = mA + mB + iA * crA * crA + iB * crB * crB
            let axialMass: Float = km > 0 ? 1 / km : 0
            let minL = j.pointee.minLength, maxL = j.pointee.maxLength
            if j.pointee.enableSpring && minL < maxL {
                // An explicit spring (springGain > 0) acted in the warm start: a force, once per sub-step.
                if j.pointee.springGain == 0 && j.pointee.hertz > 0 {
                    let vr = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                    let Cdot = dot(axis, vr)
                    let C = length - j.pointee.length
                    let sp = j.pointee.springSoftness
                    let impulse = -sp.massScale * axialMass * (Cdot + sp.biasRate * C) - sp.impulseScale * j.pointee.impulses.axial
                    j.pointee.impulses.axial += impulse
                    let P = impulse * axis
                    vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
                }
            } else {
                // rigid rod
                let vr = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                let Cdot = dot(axis, vr)
                let C = length - j.pointee.length
                var bias: Float = 0, ms: Float = 1, isc: Float = 0
                if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                let impulse = -ms * axialMass * (Cdot + bias) - isc * j.pointee.impulses.axial
                j.pointee.impulses.axial += impulse
                let P = impulse * axis
                vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
            }
            if j.pointee.enableLimit && minL < maxL {
                do { // lower
                    let C = length - minL
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let vr = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                    let Cdot = dot(axis, vr)
                    var impulse = -ms * axialMass * (Cdot + bias) - isc * j.pointee.impulses.lower
                    let newImpulse = max(0, j.pointee.impulses.lower + impulse)
                    impulse = newImpulse - j.pointee.impulses.lower
                    j.pointee.impulses.lower = newImpulse
                    let P = impulse * axis
                    vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
                }
                if maxL < .greatestFiniteMagnitude { // upper
                    let C = maxL - length
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let vr = (vA + cross(wA, rA)) - (vB + cross(wB, rB))
                    let Cdot = dot(axis, vr)
                    var impulse = -ms * axialMass * (Cdot + bias) - isc * j.pointee.impulses.upper
                    let newImpulse = max(0, j.pointee.impulses.upper + impulse)
                    impulse = newImpulse - j.pointee.impulses.upper
                    j.pointee.impulses.upper = newImpulse
                    let P = -impulse * axis
                    vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
                }
            }

        case .revolute:
            let axialMass = j.pointee.axialMass
            if j.pointee.enableSpring && j.pointee.hertz > 0 {
                let sp = j.pointee.springSoftness
                let C = jointAngle()
                let Cdot = wB - wA
                let impulse = -sp.massScale * axialMass * (Cdot + sp.biasRate * C) - sp.impulseScale * j.pointee.impulses.spring
                j.pointee.impulses.spring += impulse
                wA -= iA * impulse; wB += iB * impulse
            }
            if j.pointee.enableMotor {
                let Cdot = wB - wA - j.pointee.motorSpeed
                var impulse = -axialMass * Cdot
                let old = j.pointee.impulses.motor
                let maxImpulse = j.pointee.maxMotorTorque * ctx.h
                j.pointee.impulses.motor = clamp(old + impulse, -maxImpulse, maxImpulse)
                impulse = j.pointee.impulses.motor - old
                wA -= iA * impulse; wB += iB * impulse
            }
            if j.pointee.enableLimit {
                do {
                    let C = jointAngle() - j.pointee.lower
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = wB - wA
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.impulses.lower
                    let newImpulse = max(j.pointee.impulses.lower + impulse, 0)
                    impulse = newImpulse - j.pointee.impulses.lower
                    j.pointee.impulses.lower = newImpulse
                    wA -= iA * impulse; wB += iB * impulse
                }
                do {
                    let C = j.pointee.upper - jointAngle()
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = wA - wB
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.impulses.upper
                    let newImpulse = max(j.pointee.impulses.upper + impulse, 0)
                    impulse = newImpulse - j.pointee.impulses.upper
                    j.pointee.impulses.upper = newImpulse
                    wA += iA * impulse; wB -= iB * impulse
                }
            }
            solvePointPart(j, &vA, &wA, &vB, &wB, rA, rB, d, useBias ? j.pointee.linearSoftness : .rigid, useBias)

        case .weld:
            do {
                let sp = j.pointee.angularSoftness
                var bias: Float = 0, ms: Float = 1, isc: Float = 0
                if useBias || j.pointee.angularHertz > 0 { bias = sp.biasRate * jointAngle(); ms = sp.massScale; isc = sp.impulseScale }
                let Cdot = wB - wA
                let impulse = -j.pointee.axialMass * ms * (Cdot + bias) - isc * j.pointee.impulses.angular
                j.pointee.impulses.angular += impulse
                wA -= iA * impulse; wB += iB * impulse
            }
            solvePointPart(j, &vA, &wA, &vB, &wB, rA, rB, d, j.pointee.linearSoftness, useBias || j.pointee.linearHertz > 0)

        case .prismatic:
            let axis = sA.dq.rotate(j.pointee.axisA)
            let translation = dot(axis, d)
            let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
            let ka = mA + mB + iA * a1 * a1 + iB * a2 * a2
            let axialMass: Float = ka > 0 ? 1 / ka : 0
            if j.pointee.enableMotor {
                let Cdot = dot(axis, vB - vA) + a2 * wB - a1 * wA
                var impulse = axialMass * (j.pointee.motorSpeed - Cdot)
                let old = j.pointee.impulses.motor
                let maxImpulse = j.pointee.maxMotorTorque * ctx.h
                j.pointee.impulses.motor = clamp(old + impulse, -maxImpulse, maxImpulse)
                impulse = j.pointee.impulses.motor - old
                let P = impulse * axis
                vA -= mA * P; wA -= iA * impulse * a1; vB += mB * P; wB += iB * impulse * a2
            }
            if j.pointee.enableLimit {
                do {
                    let C = translation - j.pointee.lower
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = dot(axis, vB - vA) + a2 * wB - a1 * wA
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.impulses.lower
                    let newImpulse = max(j.pointee.impulses.lower + impulse, 0)
                    impulse = newImpulse - j.pointee.impulses.lower
                    j.pointee.impulses.lower = newImpulse
                    let P = impulse * axis
                    vA -= mA * P; wA -= iA * impulse * a1; vB += mB * P; wB += iB * impulse * a2
                }
                do {
                    let C = j.pointee.upper - translation
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = dot(axis, vA - vB) + a1 * wA - a2 * wB
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.impulses.upper
                    let newImpulse = max(j.pointee.impulses.upper + impulse, 0)
                    impulse = newImpulse - j.pointee.impulses.upper
                    j.pointee.impulses.upper = newImpulse
                    let P = impulse * axis
                    vA += mA * P; wA += iA * impulse * a1; vB -= mB * P; wB -= iB * impulse * a2
                }
            }
            // perpendicular and angular, solved together
            let perp = axis.leftPerp
            let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
            let Cdot = Vec2(dot(perp, vB - vA) + s2 * wB - s1 * wA, wB - wA)
            var bias = Vec2.zero
            var ms: Float = 1, isc: Float = 0
            if useBias {
                let C = Vec2(dot(perp, d), jointAngle())
                bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale
            }
            let k11 = mA + mB + iA * s1 * s1 + iB * s2 * s2
            let k12 = iA * s1 + iB * s2
            var k22 = iA + iB
            if k22 == 0 { k22 = 1 }
            var det = k11 * k22 - k12 * k12
            if det != 0 { det = 1 / det }
            let rhs = Cdot + bias
            let sol = Vec2(det * (k22 * rhs.x - k12 * rhs.y), det * (k11 * rhs.y - k12 * rhs.x))
            let impulse = Vec2(-ms * sol.x - isc * j.pointee.impulses.linear.x, -ms * sol.y - isc * j.pointee.impulses.linear.y)
            j.pointee.impulses.linear += impulse
            let P = impulse.x * perp
            let LA = impulse.x * s1 + impulse.y, LB = impulse.x * s2 + impulse.y
            vA -= mA * P; wA -= iA * LA; vB += mB * P; wB += iB * LB

        case .target:
            // body B's anchor toward the world target; body A is ignored (the world)
            // axisA holds the target relative to B's centre at the start of the step
            let C = sB.dp + rB - j.pointee.axisA
            let sp = j.pointee.linearSoftness
            let Cdot = vB + cross(wB, rB)
            let b = solvePoint(0, mB, 0, iB, .zero, rB, Cdot + sp.biasRate * C)
            var impulse = Vec2(-sp.massScale * b.x - sp.impulseScale * j.pointee.impulses.linear.x,
                               -sp.massScale * b.y - sp.impulseScale * j.pointee.impulses.linear.y)
            let old = j.pointee.impulses.linear
            var total = old + impulse
            let maxImpulse = j.pointee.maxForce * ctx.h
            let l = total.length
            if l > maxImpulse && l > 0 { total = (maxImpulse / l) * total }
            impulse = total - old
            j.pointee.impulses.linear = total
            vB += mB * impulse; wB += iB * cross(rB, impulse)
        }
        if j.pointee.writesA { states[a].v = vA; states[a].w = wA }
        if j.pointee.writesB { states[b].v = vB; states[b].w = wB }
    }

    @inline(__always)
    static func solvePointPart(_ j: UnsafeMutablePointer<JointSim>, _ vA: inout Vec2, _ wA: inout Float, _ vB: inout Vec2, _ wB: inout Float,
                               _ rA: Vec2, _ rB: Vec2, _ separation: Vec2, _ soft: Softness, _ useBias: Bool) {
        let mA = j.pointee.mA, iA = j.pointee.iA, mB = j.pointee.mB, iB = j.pointee.iB
        let Cdot = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
        var bias = Vec2.zero, ms: Float = 1, isc: Float = 0
        if useBias { bias = soft.biasRate * separation; ms = soft.massScale; isc = soft.impulseScale }
        let b = solvePoint(mA, mB, iA, iB, rA, rB, Cdot + bias)
        let impulse = Vec2(-ms * b.x - isc * j.pointee.impulses.linear.x, -ms * b.y - isc * j.pointee.impulses.linear.y)
        j.pointee.impulses.linear += impulse
        vA -= mA * impulse; wA -= iA * cross(rA, impulse)
        vB += mB * impulse; wB += iB * cross(rB, impulse)
    }
}
