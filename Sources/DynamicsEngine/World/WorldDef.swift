/// World settings. Defaults are Box2D v3's, scaled by `lengthUnitsPerMeter` so that the engine can
/// work directly in UIKit points (100 pt per metre, the scale of UIKit's own engine).
package struct WorldDef: Sendable {
    /// Gravity (pt/s²). Default (0, 1000): UIKit's gravity of magnitude 1, y down.
    package var gravity = Vec2(0, 1000)
    /// Length units per metre; every tolerance below is given in metres and scaled by it. Default 100.
    package var lengthUnitsPerMeter: Float = 100
    /// Let islands of bodies at rest fall asleep. Default true.
    package var enableSleep = true
    /// Sweep fast bodies against static and kinematic shapes. Default true.
    package var enableContinuous = true
    /// Contact stiffness (Hz); capped at a quarter of the sub-step rate. Default 30.
    package var contactHertz: Float = 30
    /// Contact damping ratio. Default 10: stiff and heavily damped, so stacks do not bounce.
    package var contactDampingRatio: Float = 10
    /// Joint stiffness for position errors (Hz). Default 60.
    package var jointHertz: Float = 60
    /// Joint damping ratio. Default 2 (Box2D v3.1).
    package var jointDampingRatio: Float = 2
    /// Largest speed at which overlap is pushed out (m/s). Default 3.
    package var maxContactPushSpeedMeters: Float = 3
    /// Approach speed below which restitution is ignored (m/s). Default 1.
    package var restitutionThresholdMeters: Float = 1
    /// Speed cap (m/s). Default 400.
    package var maxLinearSpeedMeters: Float = 400
    /// Sleep speed (m/s): bodies slower than this for `timeToSleep` may sleep. Default 0.05.
    package var sleepThresholdMeters: Float = 0.05
    /// Seconds of rest before an island sleeps. Default 0.5.
    package var timeToSleep: Float = 0.5
    /// Grid cell size (pt); nil picks it from the typical shape size. Default nil.
    package var cellSize: Float? = nil
    /// Run the validation walk after every step (tests). Default false.
    package var validate = false
    package init() {}
}
