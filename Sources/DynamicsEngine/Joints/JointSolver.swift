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
        if kind == .prismatic {
            s.lower = j.pointee.def.lowerTranslation; s.upper = j.pointee.def.upperTranslation
        } else {
            s.lower = j.pointee.def.lowerAngle; s.upper = j.pointee.def.upperAngle
        }
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
        s.linearSoftness = ctx.jointSoftness
        s.angularSoftness = ctx.jointSoftness
        switch kind {
        case .distance, .revolute:
            if s.enableSpring && s.hertz > 0 {
                let angular = kind == .revolute
                let load = springLoadFactor(j, hertz: s.hertz, angular: angular, bodies: bodies, joints: joints)
                s.spring = SpringStep(hertz: s.hertz, zeta: j.pointee.def.dampingRatio, h: ctx.h, loadFactor: load)
            }
        case .weld:
            let linearHertz = j.pointee.def.linearHertz, angularHertz = j.pointee.def.angularHertz
            s.enableSpring = linearHertz > 0
            s.enableAngularSpring = angularHertz > 0
            if s.enableSpring {
                let load = springLoadFactor(j, hertz: linearHertz, angular: false, bodies: bodies, joints: joints)
                s.spring = SpringStep(hertz: linearHertz, zeta: j.pointee.def.linearDampingRatio, h: ctx.h, loadFactor: load)
            }
            if s.enableAngularSpring {
                let load = springLoadFactor(j, hertz: angularHertz, angular: true, bodies: bodies, joints: joints)
                s.angularSpring = SpringStep(hertz: angularHertz, zeta: j.pointee.def.angularDampingRatio, h: ctx.h, loadFactor: load)
            }
        case .prismatic, .target:
            break
        }
        if kind == .distance {
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

    /// The spring's frequency (Hz) acting on the linear (`angular` false) or the angular degrees of
    /// freedom, and 0 for every other joint and part: distance springs and weld linear springs
    /// load the linear ones, revolute angular springs and weld angular springs the angular ones.
    @inline(__always)
    static func springHertz(_ d: JointDef, angular: Bool) -> Float {
        switch d.kind {
        case .distance: return !angular && d.enableSpring && d.minLength < d.maxLength ? max(d.hertz, 0) : 0
        case .revolute: return angular && d.enableSpring ? max(d.hertz, 0) : 0
        case .weld: return max(angular ? d.angularHertz : d.linearHertz, 0)
        case .prismatic, .target: return 0
        }
    }

    /// How much stiffer the springs on the more loaded of joint `j`'s bodies are together than `j`'s
    /// own spring of `hertz` (≥ 1; see `SpringStep`, "Stiff springs"). Walks the joint lists of the
    /// joint's dynamic bodies only (a fixed anchor's list may hold every attachment of an animator,
    /// and a body that does not move needs no bound), so a spring costs the degree of its bodies.
    static func springLoadFactor(_ j: UnsafePointer<Joint>, hertz: Float, angular: Bool, bodies: UnsafePointer<Body>,
                                 joints: UnsafePointer<Joint>) -> Float {
        @inline(__always) func inverse(_ b: Int32) -> Float {
            let body = bodies[Int(b)]
            guard body.type == .dynamic else { return 0 }
            return angular ? body.invInertia : body.invMass
        }
        @inline(__always) func share(_ mine: Float, _ other: Float) -> Float {
            let sum = mine + other
            return sum > 0 ? (mine + (mine * other).squareRoot()) / sum : 0
        }
        let a = j.pointee.bodyA, b = j.pointee.bodyB
        let invA = inverse(a), invB = inverse(b)
        let omega2 = hertz * hertz   // (2π)² cancels in the ratio
        var worst: Float = 1
        for (body, mine, other) in [(a, invA, invB), (b, invB, invA)] where mine > 0 {
            let own = omega2 * share(mine, other)
            guard own > 0 else { continue }
            var total: Float = 0
            var key = bodies[Int(body)].headJointKey
            while key >= 0 {
                let k = joints + Int(key >> 1)
                let side = Int(key & 1)
                let f = springHertz(k.pointee.def, angular: angular)
                if f > 0 {
                    let partner = side == 0 ? k.pointee.bodyB : k.pointee.bodyA
                    total += f * f * share(mine, inverse(partner))
                }
                key = k.pointee.nextKey.get(side)
            }
            worst = max(worst, total / own)
        }
        return worst.isFinite ? worst : 1
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
            let total = j.pointee.impulses.axial + j.pointee.impulses.lower - j.pointee.impulses.upper
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
                // a spring acts in the solve passes only: its pull is motion, which relaxing must keep
                if j.pointee.hertz > 0 && useBias {
                    let vr = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                    let Cdot = dot(axis, vr)
                    let C = length - j.pointee.length
                    let sp = j.pointee.spring
                    let impulse = -axialMass * (sp.massScale * Cdot + sp.positionRate * C) - sp.impulseScale * j.pointee.impulses.axial
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
            if j.pointee.enableSpring && j.pointee.hertz > 0 && useBias {
                let sp = j.pointee.spring
                let C = jointAngle()
                let Cdot = wB - wA
                let impulse = -axialMass * (sp.massScale * Cdot + sp.positionRate * C) - sp.impulseScale * j.pointee.impulses.spring
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
            if j.pointee.enableAngularSpring {
                if useBias {
                    let sp = j.pointee.angularSpring
                    let impulse = -j.pointee.axialMass * (sp.massScale * (wB - wA) + sp.positionRate * jointAngle())
                        - sp.impulseScale * j.pointee.impulses.angular
                    j.pointee.impulses.angular += impulse
                    wA -= iA * impulse; wB += iB * impulse
                }
            } else {
                let sp = j.pointee.angularSoftness
                var bias: Float = 0, ms: Float = 1, isc: Float = 0
                if useBias { bias = sp.biasRate * jointAngle(); ms = sp.massScale; isc = sp.impulseScale }
                let Cdot = wB - wA
                let impulse = -j.pointee.axialMass * ms * (Cdot + bias) - isc * j.pointee.impulses.angular
                j.pointee.impulses.angular += impulse
                wA -= iA * impulse; wB += iB * impulse
            }
            if j.pointee.enableSpring {
                if useBias { solvePointSpring(j, &vA, &wA, &vB, &wB, rA, rB, d) }
            } else {
                solvePointPart(j, &vA, &wA, &vB, &wB, rA, rB, d, j.pointee.linearSoftness, useBias)
            }

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

    /// A soft weld's linear spring (see ``SpringStep``), in the solve passes only.
    @inline(__always)
    static func solvePointSpring(_ j: UnsafeMutablePointer<JointSim>, _ vA: inout Vec2, _ wA: inout Float, _ vB: inout Vec2, _ wB: inout Float,
                                 _ rA: Vec2, _ rB: Vec2, _ separation: Vec2) {
        let mA = j.pointee.mA, iA = j.pointee.iA, mB = j.pointee.mB, iB = j.pointee.iB
        let sp = j.pointee.spring
        let Cdot = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
        let b = solvePoint(mA, mB, iA, iB, rA, rB, sp.massScale * Cdot + sp.positionRate * separation)
        let impulse = Vec2(-b.x - sp.impulseScale * j.pointee.impulses.linear.x, -b.y - sp.impulseScale * j.pointee.impulses.linear.y)
        j.pointee.impulses.linear += impulse
        vA -= mA * impulse; wA -= iA * cross(rA, impulse)
        vB += mB * impulse; wB += iB * cross(rB, impulse)
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
