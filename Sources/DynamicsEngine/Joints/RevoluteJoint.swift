/// The revolute joint, a pin: the anchors coincide (the point constraint, `linear` impulse), with
/// an optional angular spring toward the reference angle, a motor toward `motorSpeed` (rad/s) with
/// at most `maxMotorTorque`, and angle limits `lower…upper` (rad).
enum RevoluteJoint {
    @inline(__always)
    static func prepare(_ s: inout JointSim, _ j: UnsafePointer<Joint>, bodies: UnsafePointer<Body>,
                        joints: UnsafePointer<Joint>, ctx: JointContext) {
        s.lower = j.pointee.def.lowerAngle; s.upper = j.pointee.def.upperAngle
        if s.enableSpring && s.hertz > 0 {
            let load = JointSolver.springLoadFactor(j, hertz: s.hertz, angular: true, bodies: bodies, joints: joints)
            s.spring = SpringStep(hertz: s.hertz, zeta: j.pointee.def.dampingRatio, h: ctx.h, loadFactor: load)
        }
    }

    @inline(__always)
    static func warmStart(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies) {
        let i = j.pointee.impulses
        p.apply(i.linear, angular: i.angular + i.motor + i.lower - i.upper + i.spring)
    }

    @inline(__always)
    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies, ctx: JointContext, useBias: Bool) {
        let d = p.separation(j)
        let axialMass = j.pointee.axialMass
        let soft = ctx.jointSoftness
        if j.pointee.enableSpring && j.pointee.hertz > 0 && useBias {
            let sp = j.pointee.spring
            let C = p.angle(j)
            let Cdot = p.wB - p.wA
            let impulse = -axialMass * (sp.massScale * Cdot + sp.positionRate * C) - sp.impulseScale * j.pointee.impulses.spring
            j.pointee.impulses.spring += impulse
            p.applyAngular(impulse)
        }
        if j.pointee.enableMotor {
            let Cdot = p.wB - p.wA - j.pointee.motorSpeed
            var impulse = -axialMass * Cdot
            let old = j.pointee.impulses.motor
            let maxImpulse = j.pointee.maxMotorTorque * ctx.h
            j.pointee.impulses.motor = clamp(old + impulse, -maxImpulse, maxImpulse)
            impulse = j.pointee.impulses.motor - old
            p.applyAngular(impulse)
        }
        if j.pointee.enableLimit {
            do { // lower
                let t = JointSolver.limitTerms(p.angle(j) - j.pointee.lower, soft, ctx: ctx, useBias: useBias)
                let Cdot = p.wB - p.wA
                var impulse = -axialMass * t.massScale * (Cdot + t.bias) - t.impulseScale * j.pointee.impulses.lower
                let newImpulse = max(j.pointee.impulses.lower + impulse, 0)
                impulse = newImpulse - j.pointee.impulses.lower
                j.pointee.impulses.lower = newImpulse
                p.applyAngular(impulse)
            }
            do { // upper
                let t = JointSolver.limitTerms(j.pointee.upper - p.angle(j), soft, ctx: ctx, useBias: useBias)
                let Cdot = p.wA - p.wB
                var impulse = -axialMass * t.massScale * (Cdot + t.bias) - t.impulseScale * j.pointee.impulses.upper
                let newImpulse = max(j.pointee.impulses.upper + impulse, 0)
                impulse = newImpulse - j.pointee.impulses.upper
                j.pointee.impulses.upper = newImpulse
                p.applyAngular(-impulse)
            }
        }
        PointConstraint.solve(j, &p, d, useBias ? j.pointee.linearSoftness : .rigid, useBias)
    }
}
