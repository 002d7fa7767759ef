/// The prismatic joint, a slider: B moves along `axisA` (fixed in A) and does not turn relative to
/// A. The perpendicular and angular errors are solved together (the `linear` impulse: x across the
/// axis, mass·pt/s; y angular, mass·pt²/s); along the axis a motor toward `motorSpeed` (pt/s) with
/// at most `maxMotorTorque` (a force here) and translation limits `lower…upper` (pt).
enum PrismaticJoint {
    @inline(__always)
    static func prepare(_ s: inout JointSim, _ j: UnsafePointer<Joint>) {
        s.lower = j.pointee.def.lowerTranslation; s.upper = j.pointee.def.upperTranslation
    }

    @inline(__always)
    static func warmStart(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies) {
        let d = p.separation(j)
        let rA = p.rA, rB = p.rB
        let axis = p.stateA.dq.rotate(j.pointee.axisA)
        let perp = axis.leftPerp
        let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
        let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
        let i = j.pointee.impulses
        let axial = i.axial + i.motor + i.lower - i.upper
        let P = axial * axis + i.linear.x * perp
        let LA = axial * a1 + i.linear.x * s1 + i.linear.y
        let LB = axial * a2 + i.linear.x * s2 + i.linear.y
        p.vA -= p.mA * P; p.wA -= p.iA * LA
        p.vB += p.mB * P; p.wB += p.iB * LB
    }

    @inline(__always)
    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies, ctx: JointContext, useBias: Bool) {
        let d = p.separation(j)
        let rA = p.rA, rB = p.rB
        let mA = p.mA, iA = p.iA, mB = p.mB, iB = p.iB
        let soft = ctx.jointSoftness
        let axis = p.stateA.dq.rotate(j.pointee.axisA)
        let translation = dot(axis, d)
        let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
        let ka = mA + mB + iA * a1 * a1 + iB * a2 * a2
        let axialMass: Float = ka > 0 ? 1 / ka : 0
        /// Applies `impulse` along the axis (mass·pt/s): −impulse to A, +impulse to B.
        @inline(__always) func applyAxial(_ impulse: Float) {
            let P = impulse * axis
            p.vA -= mA * P; p.wA -= iA * impulse * a1; p.vB += mB * P; p.wB += iB * impulse * a2
        }
        if j.pointee.enableMotor {
            let Cdot = dot(axis, p.vB - p.vA) + a2 * p.wB - a1 * p.wA
            var impulse = axialMass * (j.pointee.motorSpeed - Cdot)
            let old = j.pointee.impulses.motor
            let maxImpulse = j.pointee.maxMotorTorque * ctx.h
            j.pointee.impulses.motor = clamp(old + impulse, -maxImpulse, maxImpulse)
            impulse = j.pointee.impulses.motor - old
            applyAxial(impulse)
        }
        if j.pointee.enableLimit {
            do { // lower
                let t = JointSolver.limitTerms(translation - j.pointee.lower, soft, ctx: ctx, useBias: useBias)
                let Cdot = dot(axis, p.vB - p.vA) + a2 * p.wB - a1 * p.wA
                var impulse = -axialMass * t.massScale * (Cdot + t.bias) - t.impulseScale * j.pointee.impulses.lower
                let newImpulse = max(j.pointee.impulses.lower + impulse, 0)
                impulse = newImpulse - j.pointee.impulses.lower
                j.pointee.impulses.lower = newImpulse
                applyAxial(impulse)
            }
            do { // upper
                let t = JointSolver.limitTerms(j.pointee.upper - translation, soft, ctx: ctx, useBias: useBias)
                let Cdot = dot(axis, p.vA - p.vB) + a1 * p.wA - a2 * p.wB
                var impulse = -axialMass * t.massScale * (Cdot + t.bias) - t.impulseScale * j.pointee.impulses.upper
                let newImpulse = max(j.pointee.impulses.upper + impulse, 0)
                impulse = newImpulse - j.pointee.impulses.upper
                j.pointee.impulses.upper = newImpulse
                let P = impulse * axis
                p.vA += mA * P; p.wA += iA * impulse * a1; p.vB -= mB * P; p.wB -= iB * impulse * a2
            }
        }
        // perpendicular and angular, solved together
        let perp = axis.leftPerp
        let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
        let Cdot = Vec2(dot(perp, p.vB - p.vA) + s2 * p.wB - s1 * p.wA, p.wB - p.wA)
        var bias = Vec2.zero
        var ms: Float = 1, isc: Float = 0
        if useBias {
            let C = Vec2(dot(perp, d), p.angle(j))
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
        p.vA -= mA * P; p.wA -= iA * LA; p.vB += mB * P; p.wB += iB * LB
    }
}
