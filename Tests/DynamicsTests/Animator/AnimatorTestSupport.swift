import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// An animator whose engine runs its validation walk after every step.
func validatingAnimator(referenceBounds: CGRect? = nil) -> DynamicAnimator {
    var def = WorldDef()
    def.validate = true
    return DynamicAnimator(referenceBounds: referenceBounds, worldDef: def)
}

/// A square item of `side` points.
func square(_ side: CGFloat = 100, at center: CGPoint, name: String? = nil,
            type: DynamicItemCollisionBoundsType = .rectangle) -> BasicDynamicItem {
    BasicDynamicItem(center: center, size: CGSize(width: side, height: side), collisionBoundsType: type, name: name)
}

/// Runs `steps` single steps, calling `body` with the step number (1-based) after each.
func run(_ animator: DynamicAnimator, steps: Int, _ body: (Int) -> Void = { _ in }) {
    for k in 1...max(steps, 1) where steps > 0 {
        animator.step()
        body(k)
    }
}

/// Times (seconds) at which `samples` (one per step of `dt`, starting at t = dt) cross zero
/// upward, by linear interpolation between steps.
func upwardCrossings(_ samples: [Double], dt: Double) -> [Double] {
    var times: [Double] = []
    for k in 1..<samples.count where samples[k - 1] < 0 && samples[k] >= 0 {
        let f = -samples[k - 1] / (samples[k] - samples[k - 1])
        times.append(Double(k) * dt + f * dt)
    }
    return times
}

/// The mean interval between successive times.
func meanPeriod(_ times: [Double]) -> Double {
    guard times.count >= 2 else { return .nan }
    return (times.last! - times.first!) / Double(times.count - 1)
}

/// Records what a delegate hears, as strings in order.
final class AnimatorRecorder: DynamicAnimatorDelegate {
    var events: [String] = []
    var pauseTimes: [TimeInterval] = []
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { events.append("resume") }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
        events.append("pause")
        pauseTimes.append(animator.elapsedTime)
    }
}

final class CollisionRecorder: CollisionBehaviorDelegate {
    var events: [String] = []
    var points: [CGPoint] = []
    func name(_ item: any DynamicItem) -> String { (item as? BasicDynamicItem)?.name ?? "?" }
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                           with item2: any DynamicItem, at p: CGPoint) {
        events.append("began \(name(item1))-\(name(item2))")
        points.append(p)
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                           with item2: any DynamicItem) {
        events.append("ended \(name(item1))-\(name(item2))")
    }
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) {
        events.append("began \(name(item))|\(identifier.map { "\($0)" } ?? "nil")")
        points.append(p)
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?) {
        events.append("ended \(name(item))|\(identifier.map { "\($0)" } ?? "nil")")
    }
}

/// What the engine's validation walk found after the animator's last step (empty unless the
/// animator validates: `validatingAnimator` or `DYNAMICS_VALIDATE=1`). Here, so that the behaviour
/// tests can stay on the public API.
func validationErrors(of animator: DynamicAnimator) -> [String] {
    animator.world.validationErrors
}
