/// The point constraint that the revolute, weld and target joints share: anchor A and anchor B
/// coincide, solved as one 2×2 block on the joint's `linear` impulse (mass·pt/s).
enum PointConstraint {
    /// Solves `K · x = b` for anchors rA, rB, where K is the point constraint's 2×2 effective mass
    /// inverse for inverse masses mA, mB and inverse inertias iA, iB (a singular K gives zero).
    @inline(__always)
    static func solveMass(_ mA: Float, _ mB: Float, _ iA: Float, _ iB: Float, _ rA: Vec2, _ rB: Vec2, _ b: Vec2) -> Vec2 {
        let k11 = mA + mB + rA.y * rA.y * iA + rB.y * rB.y * iB
        let k12 = -rA.y * rA.x * iA - rB.y * rB.x * iB
        let k22 = mA + mB + rA.x * rA.x * iA + rB.x * rB.x * iB
        var det = k11 * k22 - k12 * k12
        if det != 0 { det = 1 / det }
        return Vec2(det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k12 * b.x))
    }

    /// One pass of the rigid or soft (`soft`) point constraint at anchor offset `separation` (pt);
    /// the relax passes (`useBias` false) hold the velocity rigidly.
    @inline(__always)
    static func solve(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies, _ separation: Vec2, _ soft: Softness, _ useBias: Bool) {
        let Cdot = (p.vB + cross(p.wB, p.rB)) - (p.vA + cross(p.wA, p.rA))
        var bias = Vec2.zero, ms: Float = 1, isc: Float = 0
        if useBias { bias = soft.biasRate * separation; ms = soft.massScale; isc = soft.impulseScale }
        let b = solveMass(p.mA, p.mB, p.iA, p.iB, p.rA, p.rB, Cdot + bias)
        let impulse = Vec2(-ms * b.x - isc * j.pointee.impulses.linear.x, -ms * b.y - isc * j.pointee.impulses.linear.y)
        j.pointee.impulses.linear += impulse
        p.apply(impulse)
    }

    /// A soft weld's linear spring (see ``SpringStep``), in the solve passes only.
    @inline(__always)
    static func solveSpring(_ j: UnsafeMutablePointer<JointSim>, _ p: inout JointBodies, _ separation: Vec2) {
        let sp = j.pointee.spring
        let Cdot = (p.vB + cross(p.wB, p.rB)) - (p.vA + cross(p.wA, p.rA))
        let b = solveMass(p.mA, p.mB, p.iA, p.iB, p.rA, p.rB, sp.massScale * Cdot + sp.positionRate * separation)
        let impulse = Vec2(-b.x - sp.impulseScale * j.pointee.impulses.linear.x, -b.y - sp.impulseScale * j.pointee.impulses.linear.y)
        j.pointee.impulses.linear += impulse
        p.apply(impulse)
    }
}
