/// A touching contact to solve this step, with its bodies' solver indices (awake index, or the
/// shared zero record).
struct SolvedContact {
    var contact: Int32
    var a: Int32
    var b: Int32
    var isStaticPair: Bool
    /// Its slot in the solve order (0 = overflow, 1… = colours): `Contact.color`.
    var color: UInt8
    /// Its group of rows within a colour (`ColorGroups.group`), found once by the scan.
    var group: UInt8 = 0
}

/// What the preparation reads of a touching contact, copied out of it in contact order while the
/// contacts are sorted into solve order.
///
/// Why a copy: the preparation visits contacts colour by colour, and reading the 200-byte contact
/// records in that order missed the cache once per contact (most of the preparation's time). The
/// sort reads them front to back instead, and the preparation reads these copies front to back.
struct ContactInput {
    var solved: SolvedContact
    /// Its place in contact order (in `SolverScratch.solvedContacts`).
    var found: Int32
    var pointCount: Int32
    var normal: Vec2
    var friction: Float
    var restitution: Float
    var p0: InputPoint
    var p1: InputPoint

    @inline(__always)
    init(_ sc: SolvedContact, found k: Int, _ c: UnsafePointer<Contact>) {
        solved = sc
        found = Int32(k)
        pointCount = c.pointee.manifold.pointCount
        normal = c.pointee.manifold.normal
        friction = c.pointee.friction
        restitution = c.pointee.restitution
        p0 = InputPoint(c.pointee.manifold.p0)
        p1 = InputPoint(c.pointee.manifold.p1)
    }
}

/// A manifold point's fields the preparation reads (see `ManifoldPoint`).
struct InputPoint {
    var anchorA: Vec2
    var anchorB: Vec2
    var separation: Float
    var normalImpulse: Float
    var tangentImpulse: Float

    @inline(__always)
    init(_ mp: ManifoldPoint) {
        anchorA = mp.anchorA; anchorB = mp.anchorB
        separation = mp.separation; normalImpulse = mp.normalImpulse; tangentImpulse = mp.tangentImpulse
    }
}

struct ConstraintPoint {
    var anchorA: Vec2 = .zero
    var anchorB: Vec2 = .zero
    var baseSeparation: Float = 0
    var relativeVelocity: Float = 0
    var normalImpulse: Float = 0
    var tangentImpulse: Float = 0
    var maxNormalImpulse: Float = 0
    var normalMass: Float = 0
    var tangentMass: Float = 0
}

/// The coupling of a manifold's two points along the normal, for solving both at once.
///
/// Why a block solve: solved one after the other, the first point of a face that lands flat takes
/// the whole landing impulse in the first sub-step and the second point the rest, which turns the
/// item by a few thousandths of a radian. Against a wall beside it, that turn presses a corner into
/// the wall, and an item without friction (UIKit's default) then slides away for good. UIKit's
/// engine, Box2D 2.x, solves the two points of a manifold as one 2 × 2 linear complementarity
/// problem (its "block solver"); Box2D v3 dropped it for speed. With the soft step the system per
/// point i is  msᵢ·(vnᵢ + Σⱼ Kᵢⱼ·(xⱼ − λⱼ)) + biasᵢ + (1 − msᵢ)·Kᵢᵢ·xᵢ = 0  with xᵢ ≥ 0, where ms
/// is the point's mass scale (a soft point's impulse scale is 1 − ms) and λ its impulse so far;
/// for one point alone it is exactly the sequential update.
///
/// Only contacts with a static body (a boundary, an anchored item) are solved as a block: that is
/// where an item lands and comes to rest against walls. Between two moving items the block solve
/// kept a jammed pile of 2 000 mixed items jittering for good (ui_rain never slept), so their
/// points are solved one after the other, as before. Two points too close together (K nearly
/// singular) are solved one after the other too.
struct ContactBlock {
    /// The inverse normal masses of the two points (1 for a point that is not there) and their
    /// coupling (mass·pt/s)⁻¹.
    var k11: Float = 1, k22: Float = 1, k12: Float = 0
    /// Whether both points are solved together (a contact with a static body, two points, well
    /// conditioned); otherwise they are solved one after the other.
    var isPair = false
    /// Whether the manifold has a second point.
    var hasSecond = false

    init() {}

    /// Condition number bound above which the pair is treated as one point (Box2D 2.x's 1000).
    static let maxCondition: Float = 1000

    @inline(__always)
    init(pointCount: Int32, _ p0: InputPoint, _ p1: InputPoint, normal n: Vec2, mA: Float, iA: Float, mB: Float, iB: Float,
         isStaticPair: Bool) {
        guard pointCount > 0 else { return }
        let rn1A = cross(p0.anchorA, n), rn1B = cross(p0.anchorB, n)
        let k11 = mA + mB + iA * rn1A * rn1A + iB * rn1B * rn1B
        if k11 > 0 { self.k11 = k11 }
        guard pointCount > 1, k11 > 0 else { return }
        let rn2A = cross(p1.anchorA, n), rn2B = cross(p1.anchorB, n)
        let k22 = mA + mB + iA * rn2A * rn2A + iB * rn2B * rn2B
        let k12 = mA + mB + iA * rn1A * rn2A + iB * rn1B * rn2B
        self.k12 = k12
        if k22 > 0 { self.k22 = k22 }
        hasSecond = true
        isPair = isStaticPair && k22 > 0 && k11 * k11 < ContactBlock.maxCondition * (k11 * k22 - k12 * k12)
    }

    /// The new accumulated normal impulses (x₁, x₂) from the points' current normal velocities
    /// `vn`, biases, mass scales and accumulated impulses `old`: the first of Box2D 2.x's cases that
    /// holds (both push, the first alone, the second alone, neither); none (rounding) keeps `old`.
    @inline(__always)
    func solve(vn1: Float, vn2: Float, bias1: Float, bias2: Float, massScale1: Float, massScale2: Float,
               old1: Float, old2: Float) -> (Float, Float) {
        let b1 = massScale1 * (vn1 - k11 * old1 - k12 * old2) + bias1
        let b2 = massScale2 * (vn2 - k12 * old1 - k22 * old2) + bias2
        let c12 = massScale1 * k12, c21 = massScale2 * k12
        guard isPair else {
            // one after the other: the first with the second's impulse held, then the second
            let x1 = max(-(b1 + c12 * old2) / k11, 0)
            return (x1, hasSecond ? max(-(b2 + c21 * x1) / k22, 0) : 0)
        }
        let det = k11 * k22 - c12 * c21
        let both1 = (c12 * b2 - k22 * b1) / det, both2 = (c21 * b1 - k11 * b2) / det
        if both1 >= 0 && both2 >= 0 { return (both1, both2) }
        let first = -b1 / k11
        if first >= 0 && c21 * first + b2 >= 0 { return (first, 0) }
        let second = -b2 / k22
        if second >= 0 && c12 * second + b1 >= 0 { return (0, second) }
        if b1 >= 0 && b2 >= 0 { return (0, 0) }
        let x1 = max(-(b1 + c12 * old2) / k11, 0)      // rounding: one after the other
        return (x1, max(-(b2 + c21 * x1) / k22, 0))
    }
}

/// A contact prepared for the sub-steps: masses, anchors and the separation at the start of the step.
struct ContactConstraint {
    var a: Int32 = 0
    var b: Int32 = 0
    /// Its place in contact order (`ContactInput.found`), where its impulses are stored.
    var found: Int32 = 0
    var pointCount: Int32 = 0
    var normal: Vec2 = .zero
    var friction: Float = 0
    var restitution: Float = 0
    var mA: Float = 0, iA: Float = 0, mB: Float = 0, iB: Float = 0
    var softness = Softness.rigid
    var block = ContactBlock()
    var p0 = ConstraintPoint()
    var p1 = ConstraintPoint()
}

enum ContactSolver {
    static func prepare(_ cc: inout ContactConstraint, _ input: ContactInput, sims: UnsafePointer<BodyStepData>,
                        states: UnsafePointer<BodyState>, softness: Softness, staticSoftness: Softness, block: Bool) {
        let sa = sims[Int(cc.a)], sb = sims[Int(cc.b)]
        cc.mA = sa.invMass; cc.iA = sa.invI; cc.mB = sb.invMass; cc.iB = sb.invI
        cc.softness = input.solved.isStaticPair ? staticSoftness : softness
        cc.normal = input.normal
        cc.pointCount = input.pointCount
        let vA = states[Int(cc.a)].v, wA = states[Int(cc.a)].w
        let vB = states[Int(cc.b)].v, wB = states[Int(cc.b)].w
        if input.pointCount > 0 {
            cc.p0 = preparePoint(input.p0, normal: input.normal, mA: cc.mA, iA: cc.iA, mB: cc.mB, iB: cc.iB,
                                 vA: vA, wA: wA, vB: vB, wB: wB)
        }
        if input.pointCount > 1 {
            cc.p1 = preparePoint(input.p1, normal: input.normal, mA: cc.mA, iA: cc.iA, mB: cc.mB, iB: cc.iB,
                                 vA: vA, wA: wA, vB: vB, wB: wB)
        }
        if block {
            cc.block = ContactBlock(pointCount: input.pointCount, input.p0, input.p1, normal: input.normal,
                                    mA: cc.mA, iA: cc.iA, mB: cc.mB, iB: cc.iB, isStaticPair: input.solved.isStaticPair)
        }
    }

    /// One manifold point's constraint: anchors, the separation at the start of the step, effective
    /// masses along the normal and the tangent, the warm-start impulses and the approach speed (for
    /// restitution). Shared by the scalar and the four-wide preparation, so both do the same math.
    @inline(__always)
    static func preparePoint(_ mp: InputPoint, normal n: Vec2, mA: Float, iA: Float, mB: Float, iB: Float,
                             vA: Vec2, wA: Float, vB: Vec2, wB: Float) -> ConstraintPoint {
        let t = n.rightPerp
        var cp = ConstraintPoint()
        cp.normalImpulse = mp.normalImpulse
        cp.tangentImpulse = mp.tangentImpulse
        cp.anchorA = mp.anchorA
        cp.anchorB = mp.anchorB
        let rA = mp.anchorA, rB = mp.anchorB
        cp.baseSeparation = mp.separation - dot(rB - rA, n)
        let rnA = cross(rA, n), rnB = cross(rB, n)
        let kN = mA + mB + iA * rnA * rnA + iB * rnB * rnB
        cp.normalMass = kN > 0 ? 1 / kN : 0
        let rtA = cross(rA, t), rtB = cross(rB, t)
        let kT = mA + mB + iA * rtA * rtA + iB * rtB * rtB
        cp.tangentMass = kT > 0 ? 1 / kT : 0
        let vrA = vA + cross(wA, rA), vrB = vB + cross(wB, rB)
        cp.relativeVelocity = dot(n, vrB - vrA)
        return cp
    }

    @inline(__always)
    static func warmStart(_ cc: UnsafeMutablePointer<ContactConstraint>, _ states: UnsafeMutablePointer<BodyState>) {
        let a = Int(cc.pointee.a), b = Int(cc.pointee.b)
        var vA = states[a].v, wA = states[a].w, vB = states[b].v, wB = states[b].w
        let mA = cc.pointee.mA, iA = cc.pointee.iA, mB = cc.pointee.mB, iB = cc.pointee.iB
        let n = cc.pointee.normal, t = n.rightPerp
        let count = Int(cc.pointee.pointCount)
        for i in 0..<count {
            let cp = i == 0 ? cc.pointee.p0 : cc.pointee.p1
            let P = cp.normalImpulse * n + cp.tangentImpulse * t
            wA -= iA * cross(cp.anchorA, P)
            vA -= mA * P
            wB += iB * cross(cp.anchorB, P)
            vB += mB * P
        }
        states[a].v = vA; states[a].w = wA
        states[b].v = vB; states[b].w = wB
    }

    @inline(__always)
    static func solve(_ cc: UnsafeMutablePointer<ContactConstraint>, _ states: UnsafeMutablePointer<BodyState>,
                      invH: Float, useBias: Bool, maxPushSpeed: Float, block: Bool) {
        let a = Int(cc.pointee.a), b = Int(cc.pointee.b)
        let sA = states[a], sB = states[b]
        var vA = sA.v, wA = sA.w, vB = sB.v, wB = sB.w
        let dpA = sA.dp, dpB = sB.dp, qA = sA.dq, qB = sB.dq
        let mA = cc.pointee.mA, iA = cc.pointee.iA, mB = cc.pointee.mB, iB = cc.pointee.iB
        let n = cc.pointee.normal, t = n.rightPerp
        let soft = cc.pointee.softness
        let count = Int(cc.pointee.pointCount)
        for i in 0..<(block ? 0 : count) {
            // one point after the other (Box2D v3)
            var cp = i == 0 ? cc.pointee.p0 : cc.pointee.p1
            let rA = cp.anchorA, rB = cp.anchorB
            // current separation from the bodies' motion since the step began
            let d = (dpB - dpA) + (qB.rotate(rB) - qA.rotate(rA))
            let s = dot(d, n) + cp.baseSeparation
            var velocityBias: Float = 0, massScale: Float = 1, impulseScale: Float = 0
            if s > 0 {
                velocityBias = s * invH          // speculative: close the gap exactly
            } else if useBias {
                velocityBias = max(soft.massScale * soft.biasRate * s, -maxPushSpeed)
                massScale = soft.massScale
                impulseScale = soft.impulseScale
            }
            let dv = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
            let vn = dot(dv, n)
            var impulse = -cp.normalMass * (massScale * vn + velocityBias) - impulseScale * cp.normalImpulse
            let newImpulse = max(cp.normalImpulse + impulse, 0)
            impulse = newImpulse - cp.normalImpulse
            cp.normalImpulse = newImpulse
            cp.maxNormalImpulse = max(cp.maxNormalImpulse, impulse)
            let P = impulse * n
            vA -= mA * P; wA -= iA * cross(rA, P)
            vB += mB * P; wB += iB * cross(rB, P)
            if i == 0 { cc.pointee.p0 = cp } else { cc.pointee.p1 = cp }
        }
        if block && count > 0 {
            // Both points from the same velocities, solved as one block (`ContactBlock`).
            @inline(__always)
            func state(_ cp: ConstraintPoint) -> (vn: Float, bias: Float, massScale: Float) {
                let rA = cp.anchorA, rB = cp.anchorB
                // current separation from the bodies' motion since the step began
                let d = (dpB - dpA) + (qB.rotate(rB) - qA.rotate(rA))
                let s = dot(d, n) + cp.baseSeparation
                var bias: Float = 0, massScale: Float = 1
                if s > 0 {
                    bias = s * invH          // speculative: close the gap exactly
                } else if useBias {
                    bias = max(soft.massScale * soft.biasRate * s, -maxPushSpeed)
                    massScale = soft.massScale
                }
                let dv = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
                return (dot(dv, n), bias, massScale)
            }
            var cp0 = cc.pointee.p0, cp1 = cc.pointee.p1
            let s0 = state(cp0), s1 = count > 1 ? state(cp1) : (vn: Float(0), bias: Float(0), massScale: Float(1))
            let (x0, x1) = cc.pointee.block.solve(vn1: s0.vn, vn2: s1.vn, bias1: s0.bias, bias2: s1.bias,
                                                  massScale1: s0.massScale, massScale2: s1.massScale,
                                                  old1: cp0.normalImpulse, old2: count > 1 ? cp1.normalImpulse : 0)
            /// Sets a point's accumulated impulse to `x` and applies the change to both bodies.
            @inline(__always)
            func apply(_ cp: inout ConstraintPoint, _ x: Float) {
                let d = x - cp.normalImpulse
                cp.normalImpulse = x
                cp.maxNormalImpulse = max(cp.maxNormalImpulse, d)
                let P = d * n
                vA -= mA * P; wA -= iA * cross(cp.anchorA, P)
                vB += mB * P; wB += iB * cross(cp.anchorB, P)
            }
            apply(&cp0, x0)
            cc.pointee.p0 = cp0
            if count > 1 {
                apply(&cp1, x1)
                cc.pointee.p1 = cp1
            }
        }
        // Friction only in the relax pass: against the biased velocities it would fight the
        // position correction (Box2D v3.2 does the same).
        let friction = cc.pointee.friction
        for i in 0..<(useBias ? 0 : count) {
            var cp = i == 0 ? cc.pointee.p0 : cc.pointee.p1
            let rA = cp.anchorA, rB = cp.anchorB
            let dv = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
            let vt = dot(dv, t)
            var impulse = -cp.tangentMass * vt
            let maxFriction = friction * cp.normalImpulse
            let newImpulse = clamp(cp.tangentImpulse + impulse, -maxFriction, maxFriction)
            impulse = newImpulse - cp.tangentImpulse
            cp.tangentImpulse = newImpulse
            let P = impulse * t
            vA -= mA * P; wA -= iA * cross(rA, P)
            vB += mB * P; wB += iB * cross(rB, P)
            if i == 0 { cc.pointee.p0 = cp } else { cc.pointee.p1 = cp }
        }
        states[a].v = vA; states[a].w = wA
        states[b].v = vB; states[b].w = wB
    }

    static func applyRestitution(_ cc: UnsafeMutablePointer<ContactConstraint>, _ states: UnsafeMutablePointer<BodyState>, threshold: Float) {
        let e = cc.pointee.restitution
        if e == 0 { return }
        let a = Int(cc.pointee.a), b = Int(cc.pointee.b)
        var vA = states[a].v, wA = states[a].w, vB = states[b].v, wB = states[b].w
        let mA = cc.pointee.mA, iA = cc.pointee.iA, mB = cc.pointee.mB, iB = cc.pointee.iB
        let n = cc.pointee.normal
        for i in 0..<Int(cc.pointee.pointCount) {
            var cp = i == 0 ? cc.pointee.p0 : cc.pointee.p1
            if cp.relativeVelocity > -threshold || cp.maxNormalImpulse == 0 { continue }
            let rA = cp.anchorA, rB = cp.anchorB
            let dv = (vB + cross(wB, rB)) - (vA + cross(wA, rA))
            let vn = dot(dv, n)
            var impulse = -cp.normalMass * (vn + e * cp.relativeVelocity)
            let newImpulse = max(cp.normalImpulse + impulse, 0)
            impulse = newImpulse - cp.normalImpulse
            cp.normalImpulse = newImpulse
            cp.maxNormalImpulse = max(cp.maxNormalImpulse, impulse)
            let P = impulse * n
            vA -= mA * P; wA -= iA * cross(rA, P)
            vB += mB * P; wB += iB * cross(rB, P)
            if i == 0 { cc.pointee.p0 = cp } else { cc.pointee.p1 = cp }
        }
        states[a].v = vA; states[a].w = wA
        states[b].v = vB; states[b].w = wB
    }
}

/// A contact's impulses after the solve, stored in contact order (`ContactInput.found`) and then
/// carried into the contact records front to back.
///
/// Why not straight into the contacts: the constraints are in solve order, and writing their
/// impulses into the 200-byte contact records in that order missed the cache once per contact;
/// this array (24 bytes a contact) is an eighth of their size.
struct SolvedImpulses {
    var p0: PointImpulses
    var p1: PointImpulses
}

struct PointImpulses {
    var normalImpulse: Float
    var tangentImpulse: Float
    var maxNormalImpulse: Float
}

extension PointImpulses {
    @inline(__always)
    init(_ cp: ConstraintPoint) {
        self.init(normalImpulse: cp.normalImpulse, tangentImpulse: cp.tangentImpulse, maxNormalImpulse: cp.maxNormalImpulse)
    }
}

extension ManifoldPoint {
    /// Keeps a solved point's impulses for the next step's warm start. A non-finite value (a
    /// numerical blow-up the bodies were already protected from in `finalizeBodies`) is kept as 0.
    @inline(__always)
    mutating func keep(_ s: PointImpulses) {
        @inline(__always) func finite(_ x: Float) -> Float { x.isFinite ? x : 0 }
        normalImpulse = finite(s.normalImpulse)
        tangentImpulse = finite(s.tangentImpulse)
        maxNormalImpulse = finite(s.maxNormalImpulse)
    }
}
