/// The target joint: pulls body B's anchor toward a world point with a soft spring (`hertz`,
/// `dampingRatio`) and a force cap `maxForce` (mass·pt/s²), for snapping and dragging. Body A is
/// the world: the joint never writes it. Its impulse is `linear` (mass·pt/s).
enum TargetJoint {
    /// Keeps the target relative to B's centre at the start of the step in `axisA`, and the
    /// spring's soft-step coefficients in `linearSoftness`.
    @inline(__always)
    static func prepare(_ s: inout JointSim, _ j: UnsafePointer<Joint>, bodyB: Body, ctx: JointContext) {
        s.axisA = j.pointee.def.target - bodyB.center
        s.linearSoftness = Softness(hertz: s.hertz, zeta: j.pointee.def.dampingRatio, h: ctx.h)
    }

    @inline(__always)
    static func warmStart(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies) {
        let P = j.pointee.impulses.linear
        p.vB += p.mB * P
        p.wB += p.iB * cross(p.rB, P)
    }

    /// The same in solve and relax passes: the spring is the whole joint.
    @inline(__always)
    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies, ctx: JointContext) {
        let rB = p.rB
        let C = p.stateB.dp + rB - j.pointee.axisA
        let sp = j.pointee.linearSoftness
        let Cdot = p.vB + cross(p.wB, rB)
        let b = PointConstraint.solveMass(0, p.mB, 0, p.iB, .zero, rB, Cdot + sp.biasRate * C)
        var impulse = Vec2(-sp.massScale * b.x - sp.impulseScale * j.pointee.impulses.linear.x,
                           -sp.massScale * b.y - sp.impulseScale * j.pointee.impulses.linear.y)
        let old = j.pointee.impulses.linear
        var total = old + impulse
        let maxImpulse = j.pointee.maxForce * ctx.h
        let l = total.length
        if l > maxImpulse && l > 0 { total = (maxImpulse / l) * total }
        impulse = total - old
        j.pointee.impulses.linear = total
        p.vB += p.mB * impulse
        p.wB += p.iB * cross(rB, impulse)
    }
}
