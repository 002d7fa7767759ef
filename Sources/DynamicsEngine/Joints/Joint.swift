/// A generation-checked handle to a joint.
package struct JointID: Hashable, Sendable, Codable, Comparable {
    package var index: Int32
    package var generation: UInt32
    package init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    package static let null = JointID(index: -1, generation: 0)
    package static func < (a: JointID, b: JointID) -> Bool { a.index < b.index }
}

/// The kinds of joint. All are soft constraints solved in the sub-steps (Box2D v3's soft step).
package enum JointKind: UInt8, Sendable, Codable {
    /// Keeps two anchors at a distance: rigid, a spring, or free within `minLength…maxLength` (a rope).
    case distance
    /// A pin: the anchors coincide; optional motor, angle limits and angular spring.
    case revolute
    /// A slider along `localAxisA`: no relative rotation; optional translation limits and motor.
    case prismatic
    /// Anchors coincide and the relative angle is fixed (soft when the hertz values are > 0).
    case weld
    /// Pulls body B's anchor toward `target` (world) with a soft spring and a force cap: snapping
    /// and dragging.
    case target
}

/// Everything needed to create a joint. Anchors are in each body's local frame (pt, relative to the
/// body origin); angles in radians; frequencies in Hz; forces in mass·pt/s².
package struct JointDef: Sendable, Codable {
    // Read when the joint is created or prepared.
    package var bodyA: BodyID = .null
    package var bodyB: BodyID = .null
    package var localAnchorA: Vec2 = .zero
    package var localAnchorB: Vec2 = .zero
    /// Let the two bodies collide with each other (false: the joint alone relates them).
    package var collideConnected = false
    /// Angle of B relative to A that the revolute/weld/prismatic joints hold (rad).
    package var referenceAngle: Float = 0
    /// Prismatic axis in A's frame (normalised on creation).
    package var localAxisA = Vec2(1, 0)
    /// Damping ratio of the distance spring and the revolute angular spring (with `hertz`).
    package var dampingRatio: Float = 0
    /// Weld damping ratios (with `linearHertz`, `angularHertz`).
    package var linearDampingRatio: Float = 1
    package var angularDampingRatio: Float = 1
    /// Target joint: the world point that body B's anchor is pulled to (pt).
    package var target: Vec2 = .zero

    // Also copied into the joint's `JointSim`, which the sub-steps read.
    package var kind: JointKind = .distance
    /// Distance: a spring (with `hertz`, `dampingRatio`) instead of a rigid rod. Revolute: an angular spring.
    package var enableSpring = false
    /// Distance: limit to `minLength…maxLength`. Revolute: `lowerAngle…upperAngle`. Prismatic: `lowerTranslation…upperTranslation`.
    package var enableLimit = false
    /// Revolute and prismatic: drive toward `motorSpeed` with at most `maxMotorTorque`.
    package var enableMotor = false
    /// Distance: rest length (pt).
    package var length: Float = 100
    package var minLength: Float = 0
    package var maxLength: Float = .greatestFiniteMagnitude
    /// Spring frequency (Hz) of the distance spring, the revolute angular spring and the target joint.
    package var hertz: Float = 0
    /// rad/s (revolute) or pt/s (prismatic).
    package var motorSpeed: Float = 0
    /// Torque cap (mass·pt²/s², revolute) or force cap (mass·pt/s², prismatic).
    package var maxMotorTorque: Float = 0
    package var lowerAngle: Float = 0
    package var upperAngle: Float = 0
    package var lowerTranslation: Float = 0
    package var upperTranslation: Float = 0
    /// Weld stiffness (Hz); 0 = rigid.
    package var linearHertz: Float = 0
    package var angularHertz: Float = 0
    /// Target joint: force cap (mass·pt/s²).
    package var maxForce: Float = .greatestFiniteMagnitude

    package init(kind: JointKind) { self.kind = kind }
}

/// A joint in the world: the definition, its links and the impulses it carries from step to step.
/// What the sub-steps read lives in a ``JointSim``, made afresh each step.
struct Joint: Codable {
    var bodyA: Int32 = -1
    var bodyB: Int32 = -1
    var generation: UInt32 = 0
    var isAlive = false
    var prevKey = EdgeLinks()
    var nextKey = EdgeLinks()
    var def = JointDef(kind: .distance)
    var impulses = JointImpulses()
}

/// A joint's accumulated impulses, warm-started from step to step: mass·pt/s for the linear and
/// axial ones, mass·pt²/s for the angular ones; all zero for a new joint.
struct JointImpulses: Codable {
    var linear: Vec2 = .zero
    var angular: Float = 0
    /// Distance joints (rigid or spring) and the prismatic joint's axis.
    var axial: Float = 0
    var lower: Float = 0
    var upper: Float = 0
    var motor: Float = 0
    var spring: Float = 0

    var isFinite: Bool {
        // a finite sum proves every term finite; an infinite one may be an overflow of finite terms
        let sum = linear.x + linear.y + angular + axial + lower + upper + motor + spring
        return sum.isFinite || (linear.isFinite && angular.isFinite && axial.isFinite && lower.isFinite && upper.isFinite
                                && motor.isFinite && spring.isFinite)
    }
}

/// One awake joint as the sub-steps solve it: the definition's solver fields, the impulses and the
/// per-step data, in one record of three cache lines.
///
/// Why a copy: the sub-steps visit joints colour by colour, a dozen passes a step. Prepared into an
/// array in that order, each pass reads memory front to back (as Box2D keeps its joints colour by
/// colour); read in place, the joint records came out of memory order and the passes waited on
/// memory. Only the impulses go back to the ``Joint``.
struct JointSim {
    var kind: JointKind = .distance
    var enableSpring = false
    var enableLimit = false
    var enableMotor = false
    /// Whether the solver writes body A's (B's) velocity: only a dynamic body's. A static or
    /// kinematic one would not change (its masses are zero), and leaving it alone is what lets the
    /// joints of one colour, which share no dynamic body, run in parallel.
    var writesA = false, writesB = false
    var indexA: Int32 = 0
    var indexB: Int32 = 0
    // from the definition (lengths pt, speeds rad/s or pt/s, frequencies Hz, caps per `JointDef`)
    var length: Float = 0, minLength: Float = 0, maxLength: Float = 0
    var hertz: Float = 0
    var motorSpeed: Float = 0, maxMotorTorque: Float = 0
    /// The limits: angles (rad) for a revolute joint, translations (pt) for a prismatic one.
    var lower: Float = 0, upper: Float = 0
    var linearHertz: Float = 0, angularHertz: Float = 0
    var maxForce: Float = 0
    var impulses = JointImpulses()
    // per-step solver data
    var rA: Vec2 = .zero
    var rB: Vec2 = .zero
    var deltaCenter: Vec2 = .zero
    var deltaAngle: Float = 0
    var axisA: Vec2 = .zero
    var mA: Float = 0, mB: Float = 0, iA: Float = 0, iB: Float = 0
    var axialMass: Float = 0
    var springSoftness = Softness.rigid
    /// A distance spring's gains per sub-step when it is integrated explicitly (see
    /// `JointSolver.springGains`): h·ω² (1/s) and 2ζω·h (no unit); both 0 for a soft-step spring.
    var springGain: Float = 0, springDampingGain: Float = 0
    var linearSoftness = Softness.rigid
    var angularSoftness = Softness.rigid
}

/// A soft constraint's coefficients for one sub-step length (Catto's "soft step"): a spring of
/// frequency ω and damping ratio ζ becomes a bias rate, a mass scale and an impulse scale, so the
/// constraint can be solved as a rigid one and still behave like a spring.
package struct Softness: Sendable, Equatable, Codable {
    package var biasRate: Float
    package var massScale: Float
    package var impulseScale: Float
    package static let rigid = Softness(biasRate: 0, massScale: 1, impulseScale: 0)

    package init(biasRate: Float, massScale: Float, impulseScale: Float) {
        self.biasRate = biasRate; self.massScale = massScale; self.impulseScale = impulseScale
    }

    /// - Parameters: hertz (Hz), zeta (damping ratio), h (sub-step, s).
    package init(hertz: Float, zeta: Float, h: Float) {
        if hertz <= 0 || !hertz.isFinite || !(h > 0) || !h.isFinite { self = .rigid; return }
        let zeta = zeta.isFinite ? max(zeta, 0) : 0
        let omega = 2 * Float.pi * hertz
        let a1 = 2 * zeta + h * omega
        let a2 = h * omega * a1
        guard a2.isFinite, omega.isFinite, a1.isFinite else {
            // So stiff (or so damped) that a Float overflows: the formulas' limit as a2 → ∞, a
            // rigid constraint with full position correction (instead of ∞ · 0 = NaN).
            biasRate = omega.isFinite && a1.isFinite ? omega / a1 : 1 / h
            massScale = 1
            impulseScale = 0
            return
        }
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
        impulseScale = a3
    }
}
