import Foundation

/// UIKit Dynamics' unit factors, in one place: how the numbers UIKit code passes become points,
/// seconds and the engine's mass units.
///
/// UIKit Dynamics runs Box2D (and PhysicsKit for fields) in metres at 100 pt per metre, and scales
/// its public numbers by powers of that: gravity's magnitude 1 is 1 000 pt/s², a push's magnitude
/// 1 accelerates a 100 × 100 pt item of density 1 (mass 1) at 100 pt/s², a field's strength 1 is
/// 1 m/s², a torque unit is 1 N·m = 10 000 mass·pt²/s². Sources: Apple's `UIGravityBehavior` and
/// `UIPushBehavior` documentation (1 000 and 100 pt/s²), WWDC 2013 session 206, and the measured
/// field laws cited in the Fields article.
enum UIKitUnits {
    /// Points per metre: 100. The engine's `lengthUnitsPerMeter`, and the field laws' metre.
    static let pointsPerMetre: CGFloat = 100
    /// The acceleration of gravity magnitude 1: 1 000 pt/s² (UIKit's "UIKit gravity").
    static let gravityAcceleration: CGFloat = 1000
    /// The force of push magnitude 1: 100 mass·pt/s² (a mass-1 item accelerates at 100 pt/s²).
    static let pushForce: CGFloat = pointsPerMetre
    /// One unit of torque (an attachment's `frictionTorque`): 1 N·m = 100² mass·pt²/s².
    static let torque: CGFloat = pointsPerMetre * pointsPerMetre
}
