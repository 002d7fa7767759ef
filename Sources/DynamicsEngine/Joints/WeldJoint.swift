/// The weld joint: the anchors coincide and the relative angle holds the reference angle. Rigid,
/// or soft in either part: a linear spring of `linearHertz` (the `linear` impulse, mass·pt/s)
/// and an angular one of `angularHertz` (the `angular` impulse, mass·pt²/s).
enum WeldJoint {
    @inline(__always)
    static func prepare(_ s: inout JointSim, _ j: UnsafePointer<Joint>, bodies: UnsafePointer<Body>,
                        joints: UnsafePointer<Joint>, ctx: JointContext) {
        let linearHertz = j.pointee.def.linearHertz, angularHertz = j.pointee.def.angularHertz
        s.enableSpring = linearHertz > 0
        s.enableAngularSpring = angularHertz > 0
        if s.enableSpring {
            let load = JointSolver.springLoadFactor(j, hertz: linearHertz, angular: false, bodies: bodies, joints: joints)
            s.spring = SpringStep(hertz: linearHertz, zeta: j.pointee.def.linearDampingRatio, h: ctx.h, loadFactor: load)
        }
        if s.enableAngularSpring {
            let load = JointSolver.springLoadFactor(j, hertz: angularHertz, angular: true, bodies: bodies, joints: joints)
            s.angularSpring = SpringStep(hertz: angularHertz, zeta: j.pointee.def.angularDampingRatio, h: ctx.h, loadFactor: load)
        }
    }

    @inline(__always)
    static func warmStart(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies) {
        p.apply(j.pointee.impulses.linear, angular: j.pointee.impulses.angular)
    }

    @inline(__always)
    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies, ctx: JointContext, useBias: Bool) {
        let d = p.separation(j)
        if j.pointee.enableAngularSpring {
            // a spring acts in the solve passes only (see SpringStep)
            if useBias {
                let sp = j.pointee.angularSpring
                let impulse = -j.pointee.axialMass * (sp.massScale * (p.wB - p.wA) + sp.positionRate * p.angle(j))
                    - sp.impulseScale * j.pointee.impulses.angular
                j.pointee.impulses.angular += impulse
                p.applyAngular(impulse)
            }
        } else {
            let sp = j.pointee.angularSoftness
            var bias: Float = 0, ms: Float = 1, isc: Float = 0
            if useBias { bias = sp.biasRate * p.angle(j); ms = sp.massScale; isc = sp.impulseScale }
            let Cdot = p.wB - p.wA
            let impulse = -j.pointee.axialMass * ms * (Cdot + bias) - isc * j.pointee.impulses.angular
            j.pointee.impulses.angular += impulse
            p.applyAngular(impulse)
        }
        if j.pointee.enableSpring {
            if useBias { PointConstraint.solveSpring(j, &p, d) }
        } else {
            PointConstraint.solve(j, &p, d, j.pointee.linearSoftness, useBias)
        }
    }
}
