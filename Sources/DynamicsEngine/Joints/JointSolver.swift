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
    static func prepare(_ j: inout Joint, bodies: UnsafePointer<Body>, sims: UnsafePointer<BodyStepData>, dummy: Int32, ctx: JointContext, warmStartScale: Float) {
        let bA = bodies[Int(j.bodyA)], bB = bodies[Int(j.bodyB)]
        j.indexA = bA.awakeIndex >= 0 ? bA.awakeIndex : dummy
        j.indexB = bB.awakeIndex >= 0 ? bB.awakeIndex : dummy
        j.mA = sims[Int(j.indexA)].invMass; j.iA = sims[Int(j.indexA)].invI
        j.mB = sims[Int(j.indexB)].invMass; j.iB = sims[Int(j.indexB)].invI
        j.writesA = sims[Int(j.indexA)].isDynamic && j.def.kind != .target   // a target joint's A is the world
        j.writesB = sims[Int(j.indexB)].isDynamic
        let qA = bA.transform.q, qB = bB.transform.q
        j.rA = qA.rotate(j.def.localAnchorA - bA.localCenter)
        j.rB = qB.rotate(j.def.localAnchorB - bB.localCenter)
        j.deltaCenter = bB.center - bA.center
        j.deltaAngle = unwindAngle(relativeAngle(qA, qB) - j.def.referenceAngle)
        j.axisA = qA.rotate(j.def.localAxisA)
        let k = j.iA + j.iB
        j.axialMass = k > 0 ? 1 / k : 0
        j.springSoftness = Softness(hertz: j.def.hertz, zeta: j.def.dampingRatio, h: ctx.h)
        j.linearSoftness = j.def.linearHertz > 0 ? Softness(hertz: j.def.linearHertz, zeta: j.def.linearDampingRatio, h: ctx.h) : ctx.jointSoftness
        j.angularSoftness = j.def.angularHertz > 0 ? Softness(hertz: j.def.angularHertz, zeta: j.def.angularDampingRatio, h: ctx.h) : ctx.jointSoftness
        if j.def.kind == .distance {
            let d = j.deltaCenter + j.rB - j.rA
            let axis = d.normalized
            let crA = cross(j.rA, axis), crB = cross(j.rB, axis)
            let km = j.mA + j.mB + j.iA * crA * crA + j.iB * crB * crB
            j.axialMass = km > 0 ? 1 / km : 0
        }
        if j.def.kind == .target {
            j.axisA = j.def.target - bB.center
            j.linearSoftness = Softness(hertz: j.def.hertz, zeta: j.def.dampingRatio, h: ctx.h)
        }
        j.linearImpulse = warmStartScale * j.linearImpulse
        j.angularImpulse *= warmStartScale
        j.axialImpulse *= warmStartScale
        j.lowerImpulse *= warmStartScale
        j.upperImpulse *= warmStartScale
        j.motorImpulse *= warmStartScale
        j.springImpulse *= warmStartScale
    }

    @inline(__always)
    static func apply(_ j: UnsafeMutablePointer<Joint>, _ states: UnsafeMutablePointer<BodyState>, _ P: Vec2, _ rA: Vec2, _ rB: Vec2, _ angular: Float) {
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

    static func warmStart(_ j: UnsafeMutablePointer<Joint>, _ states: UnsafeMutablePointer<BodyState>) {
        let sA = states[Int(j.pointee.indexA)], sB = states[Int(j.pointee.indexB)]
        let rA = sA.dq.rotate(j.pointee.rA), rB = sB.dq.rotate(j.pointee.rB)
        switch j.pointee.def.kind {
        case .distance:
            let d = (sB.dp - sA.dp) + j.pointee.deltaCenter + rB - rA
            let axis = d.normalized
            let total = j.pointee.axialImpulse + j.pointee.lowerImpulse - j.pointee.upperImpulse
            apply(j, states, total * axis, rA, rB, 0)
        case .revolute:
            let ang = j.pointee.angularImpulse + j.pointee.motorImpulse + j.pointee.lowerImpulse - j.pointee.upperImpulse + j.pointee.springImpulse
            apply(j, states, j.pointee.linearImpulse, rA, rB, ang)
        case .weld:
            apply(j, states, j.pointee.linearImpulse, rA, rB, j.pointee.angularImpulse)
        case .prismatic:
            let d = (sB.dp - sA.dp) + j.pointee.deltaCenter + rB - rA
            let axis = sA.dq.rotate(j.pointee.axisA)
            let perp = axis.leftPerp
            let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
            let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
            let axial = j.pointee.axialImpulse + j.pointee.motorImpulse + j.pointee.lowerImpulse - j.pointee.upperImpulse
            let P = axial * axis + j.pointee.linearImpulse.x * perp
            let LA = axial * a1 + j.pointee.linearImpulse.x * s1 + j.pointee.linearImpulse.y
            let LB = axial * a2 + j.pointee.linearImpulse.x * s2 + j.pointee.linearImpulse.y
            let a = Int(j.pointee.indexA), b = Int(j.pointee.indexB)
            if j.pointee.writesA { states[a].v -= j.pointee.mA * P; states[a].w -= j.pointee.iA * LA }
            if j.pointee.writesB { states[b].v += j.pointee.mB * P; states[b].w += j.pointee.iB * LB }
        case .target:
            let b = Int(j.pointee.indexB)
            if j.pointee.writesB {
                states[b].v += j.pointee.mB * j.pointee.linearImpulse
                states[b].w += j.pointee.iB * cross(rB, j.pointee.linearImpulse)
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

    static func solve(_ j: UnsafeMutablePointer<Joint>, _ states: UnsafeMutablePointer<BodyState>, ctx: JointContext, useBias: Bool) {
        let a = Int(j.pointee.indexA), b = Int(j.pointee.indexB)
        let sA = states[a], sB = states[b]
        var vA = sA.v, wA = sA.w, vB = sB.v, wB = sB.w
        let mA = j.pointee.mA, iA = j.pointee.iA, mB = j.pointee.mB, iB = j.pointee.iB
        let rA = sA.dq.rotate(j.pointee.rA), rB = sB.dq.rotate(j.pointee.rB)
        let d = (sB.dp - sA.dp) + j.pointee.deltaCenter + rB - rA
        // Only springs, limits and welds need the angle: an atan2 per joint per pass is not free.
        @inline(__always) func jointAngle() -> Float { j.pointee.deltaAngle + relativeAngle(sA.dq, sB.dq) }
        let soft = ctx.jointSoftness
        let def = j.pointee.def

        switch def.kind {
        case .distance:
            let length = d.length
            let axis = d.normalized
            let crA = cross(rA, axis), crB = cross(rB, axis)
            let km = mA + mB + iA * crA * crA + iB * crB * crB
            let axialMass: Float = km > 0 ? 1 / km : 0
            let minL = def.minLength, maxL = def.maxLength
            if def.enableSpring && minL < maxL {
                if def.hertz > 0 {
                    let vr = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                    let Cdot = dot(axis, vr)
                    let C = length - def.length
                    let sp = j.pointee.springSoftness
                    let impulse = -sp.massScale * axialMass * (Cdot + sp.biasRate * C) - sp.impulseScale * j.pointee.axialImpulse
                    j.pointee.axialImpulse += impulse
                    let P = impulse * axis
                    vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
                }
            } else {
                // rigid rod
                let vr = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                let Cdot = dot(axis, vr)
                let C = length - def.length
                var bias: Float = 0, ms: Float = 1, isc: Float = 0
                if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                let impulse = -ms * axialMass * (Cdot + bias) - isc * j.pointee.axialImpulse
                j.pointee.axialImpulse += impulse
                let P = impulse * axis
                vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
            }
            if def.enableLimit && minL < maxL {
                do { // lower
                    let C = length - minL
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let vr = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                    let Cdot = dot(axis, vr)
                    var impulse = -ms * axialMass * (Cdot + bias) - isc * j.pointee.lowerImpulse
                    let newImpulse = max(0, j.pointee.lowerImpulse + impulse)
                    impulse = newImpulse - j.pointee.lowerImpulse
                    j.pointee.lowerImpulse = newImpulse
                    let P = impulse * axis
                    vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
                }
                if maxL < .greatestFiniteMagnitude { // upper
                    let C = maxL - length
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let vr = (vA + cross(wA, rA)) - (vB + cross(wB, rB))
                    let Cdot = dot(axis, vr)
                    var impulse = -ms * axialMass * (Cdot + bias) - isc * j.pointee.upperImpulse
                    let newImpulse = max(0, j.pointee.upperImpulse + impulse)
                    impulse = newImpulse - j.pointee.upperImpulse
                    j.pointee.upperImpulse = newImpulse
                    let P = -impulse * axis
                    vA -= mA * P; wA -= iA * cross(rA, P); vB += mB * P; wB += iB * cross(rB, P)
                }
            }

        case .revolute:
            let axialMass = j.pointee.axialMass
            if def.enableSpring && def.hertz > 0 {
                let sp = j.pointee.springSoftness
                let C = jointAngle()
                let Cdot = wB - wA
                let impulse = -sp.massScale * axialMass * (Cdot + sp.biasRate * C) - sp.impulseScale * j.pointee.springImpulse
                j.pointee.springImpulse += impulse
                wA -= iA * impulse; wB += iB * impulse
            }
            if def.enableMotor {
                let Cdot = wB - wA - def.motorSpeed
                var impulse = -axialMass * Cdot
                let old = j.pointee.motorImpulse
                let maxImpulse = def.maxMotorTorque * ctx.h
                j.pointee.motorImpulse = clamp(old + impulse, -maxImpulse, maxImpulse)
                impulse = j.pointee.motorImpulse - old
                wA -= iA * impulse; wB += iB * impulse
            }
            if def.enableLimit {
                do {
                    let C = jointAngle() - def.lowerAngle
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = wB - wA
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.lowerImpulse
                    let newImpulse = max(j.pointee.lowerImpulse + impulse, 0)
                    impulse = newImpulse - j.pointee.lowerImpulse
                    j.pointee.lowerImpulse = newImpulse
                    wA -= iA * impulse; wB += iB * impulse
                }
                do {
                    let C = def.upperAngle - jointAngle()
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = wA - wB
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.upperImpulse
                    let newImpulse = max(j.pointee.upperImpulse + impulse, 0)
                    impulse = newImpulse - j.pointee.upperImpulse
                    j.pointee.upperImpulse = newImpulse
                    wA += iA * impulse; wB -= iB * impulse
                }
            }
            solvePointPart(j, &vA, &wA, &vB, &wB, rA, rB, d, useBias ? j.pointee.linearSoftness : .rigid, useBias)

        case .weld:
            do {
                let sp = j.pointee.angularSoftness
                var bias: Float = 0, ms: Float = 1, isc: Float = 0
                if useBias || def.angularHertz > 0 { bias = sp.biasRate * jointAngle(); ms = sp.massScale; isc = sp.impulseScale }
                let Cdot = wB - wA
                let impulse = -j.pointee.axialMass * ms * (Cdot + bias) - isc * j.pointee.angularImpulse
                j.pointee.angularImpulse += impulse
                wA -= iA * impulse; wB += iB * impulse
            }
            solvePointPart(j, &vA, &wA, &vB, &wB, rA, rB, d, j.pointee.linearSoftness, useBias || def.linearHertz > 0)

        case .prismatic:
            let axis = sA.dq.rotate(j.pointee.axisA)
            let translation = dot(axis, d)
            let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
            let ka = mA + mB + iA * a1 * a1 + iB * a2 * a2
            let axialMass: Float = ka > 0 ? 1 / ka : 0
            if def.enableMotor {
                let Cdot = dot(axis, vB - vA) + a2 * wB - a1 * wA
                var impulse = axialMass * (def.motorSpeed - Cdot)
                let old = j.pointee.motorImpulse
                let maxImpulse = def.maxMotorTorque * ctx.h
                j.pointee.motorImpulse = clamp(old + impulse, -maxImpulse, maxImpulse)
                impulse = j.pointee.motorImpulse - old
                let P = impulse * axis
                vA -= mA * P; wA -= iA * impulse * a1; vB += mB * P; wB += iB * impulse * a2
            }
            if def.enableLimit {
                do {
                    let C = translation - def.lowerTranslation
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = dot(axis, vB - vA) + a2 * wB - a1 * wA
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.lowerImpulse
                    let newImpulse = max(j.pointee.lowerImpulse + impulse, 0)
                    impulse = newImpulse - j.pointee.lowerImpulse
                    j.pointee.lowerImpulse = newImpulse
                    let P = impulse * axis
                    vA -= mA * P; wA -= iA * impulse * a1; vB += mB * P; wB += iB * impulse * a2
                }
                do {
                    let C = def.upperTranslation - translation
                    var bias: Float = 0, ms: Float = 1, isc: Float = 0
                    if C > 0 { bias = C * ctx.invH } else if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
                    let Cdot = dot(axis, vA - vB) + a1 * wA - a2 * wB
                    var impulse = -axialMass * ms * (Cdot + bias) - isc * j.pointee.upperImpulse
                    let newImpulse = max(j.pointee.upperImpulse + impulse, 0)
                    impulse = newImpulse - j.pointee.upperImpulse
                    j.pointee.upperImpulse = newImpulse
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
            let impulse = Vec2(-ms * sol.x - isc * j.pointee.linearImpulse.x, -ms * sol.y - isc * j.pointee.linearImpulse.y)
            j.pointee.linearImpulse += impulse
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
            var impulse = Vec2(-sp.massScale * b.x - sp.impulseScale * j.pointee.linearImpulse.x,
                               -sp.massScale * b.y - sp.impulseScale * j.pointee.linearImpulse.y)
            let old = j.pointee.linearImpulse
            var total = old + impulse
            let maxImpulse = def.maxForce * ctx.h
            let l = total.length
            if l > maxImpulse && l > 0 { total = (maxImpulse / l) * total }
            impulse = total - old
            j.pointee.linearImpulse = total
            vB += mB * impulse; wB += iB * cross(rB, impulse)
        }
        if j.pointee.writesA { states[a].v = vA; states[a].w = wA }
        if j.pointee.writesB { states[b].v = vB; states[b].w = wB }
    }

    @inline(__always)
    static func solvePointPart(_ j: UnsafeMutablePointer<Joint>, _ vA: inout Vec2, _ wA: inout Float, _ vB: inout Vec2, _ wB: inout Float,
                               _ rA: Vec2, _ rB: Vec2, _ separation: Vec2, _ soft: Softness, _ useBias: Bool) {
        let mA = j.pointee.mA, iA = j.pointee.iA, mB = j.pointee.mB, iB = j.pointee.iB
        let Cdot = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
        var bias = Vec2.zero, ms: Float = 1, isc: Float = 0
        if useBias { bias = soft.biasRate * separation; ms = soft.massScale; isc = soft.impulseScale }
        let b = solvePoint(mA, mB, iA, iB, rA, rB, Cdot + bias)
        let impulse = Vec2(-ms * b.x - isc * j.pointee.linearImpulse.x, -ms * b.y - isc * j.pointee.linearImpulse.y)
        j.pointee.linearImpulse += impulse
        vA -= mA * impulse; wA -= iA * cross(rA, impulse)
        vB += mB * impulse; wB += iB * cross(rB, impulse)
    }
}
