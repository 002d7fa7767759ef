/// The distance joint: a rigid rod between the anchors, or a spring of rest length `length`, and
/// optionally a rope's limits `minLength…maxLength` (pt). Its impulses are along the line between
/// the anchors: `axial` for the rod or spring, `lower` and `upper` for the limits (mass·pt/s).
enum DistanceJoint {
    /// The spring's step coefficients and the axial mass at the start of the step (the solve
    /// passes recompute the axis; the prepared mass is what a step that never solves reads).
    @inline(__always)
    static func prepare(_ s: inout JointSim, _ j: UnsafePointer<Joint>, bodies: UnsafePointer<Body>,
                        joints: UnsafePointer<Joint>, ctx: JointContext) {
        if s.enableSpring && s.hertz > 0 {
            let load = JointSolver.springLoadFactor(j, hertz: s.hertz, angular: false, bodies: bodies, joints: joints)
            s.spring = SpringStep(hertz: s.hertz, zeta: j.pointee.def.dampingRatio, h: ctx.h, loadFactor: load)
        }
        let d = s.deltaCenter + s.rB - s.rA
        let axis = d.normalized
        let crA = cross(s.rA, axis), crB = cross(s.rB, axis)
        let km = s.mA + s.mB + s.iA * crA * crA + s.iB * crB * crB
        s.axialMass = km > 0 ? 1 / km : 0
    }

    @inline(__always)
    static func warmStart(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies) {
        let axis = p.separation(j).normalized
        let total = j.pointee.impulses.axial + j.pointee.impulses.lower - j.pointee.impulses.upper
        p.apply(total * axis, angular: 0)
    }

    @inline(__always)
    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies, ctx: JointContext, useBias: Bool) {
        let d = p.separation(j)
        let length = d.length
        let axis = d.normalized
        let rA = p.rA, rB = p.rB
        let crA = cross(rA, axis), crB = cross(rB, axis)
        let km = p.mA + p.mB + p.iA * crA * crA + p.iB * crB * crB
        let axialMass: Float = km > 0 ? 1 / km : 0
        let minL = j.pointee.minLength, maxL = j.pointee.maxLength
        let soft = ctx.jointSoftness
        if j.pointee.enableSpring && minL < maxL {
            // a spring acts in the solve passes only: its pull is motion, which relaxing must keep
            if j.pointee.hertz > 0 && useBias {
                let vr = (p.vB + cross(p.wB, rB)) - (p.vA + cross(p.wA, rA))
                let Cdot = dot(axis, vr)
                let C = length - j.pointee.length
                let sp = j.pointee.spring
                let impulse = -axialMass * (sp.massScale * Cdot + sp.positionRate * C) - sp.impulseScale * j.pointee.impulses.axial
                j.pointee.impulses.axial += impulse
                p.apply(impulse * axis)
            }
        } else {
            // rigid rod
            let vr = (p.vB + cross(p.wB, rB)) - (p.vA + cross(p.wA, rA))
            let Cdot = dot(axis, vr)
            let C = length - j.pointee.length
            var bias: Float = 0, ms: Float = 1, isc: Float = 0
            if useBias { bias = soft.biasRate * C; ms = soft.massScale; isc = soft.impulseScale }
            let impulse = -ms * axialMass * (Cdot + bias) - isc * j.pointee.impulses.axial
            j.pointee.impulses.axial += impulse
            p.apply(impulse * axis)
        }
        guard j.pointee.enableLimit && minL < maxL else { return }
        do { // lower
            let t = JointSolver.limitTerms(length - minL, soft, ctx: ctx, useBias: useBias)
            let vr = (p.vB + cross(p.wB, rB)) - (p.vA + cross(p.wA, rA))
            let Cdot = dot(axis, vr)
            var impulse = -t.massScale * axialMass * (Cdot + t.bias) - t.impulseScale * j.pointee.impulses.lower
            let newImpulse = max(0, j.pointee.impulses.lower + impulse)
            impulse = newImpulse - j.pointee.impulses.lower
            j.pointee.impulses.lower = newImpulse
            p.apply(impulse * axis)
        }
        if maxL < .greatestFiniteMagnitude { // upper
            let t = JointSolver.limitTerms(maxL - length, soft, ctx: ctx, useBias: useBias)
            let vr = (p.vA + cross(p.wA, rA)) - (p.vB + cross(p.wB, rB))
            let Cdot = dot(axis, vr)
            var impulse = -t.massScale * axialMass * (Cdot + t.bias) - t.impulseScale * j.pointee.impulses.upper
            let newImpulse = max(0, j.pointee.impulses.upper + impulse)
            impulse = newImpulse - j.pointee.impulses.upper
            j.pointee.impulses.upper = newImpulse
            p.apply(-impulse * axis)
        }
    }
}
