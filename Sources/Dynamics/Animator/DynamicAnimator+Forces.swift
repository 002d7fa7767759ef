import DynamicsEngine
import Foundation

// The per-step force pipeline.
//
// Once per step, before the engine step, the animator calls `applyForces(in:dt:)` on every
// behaviour in depth-first order. Force behaviours (gravity, push, snap's angular spring, and
// fields) read the item records below — position, velocity, mass, charge — and add forces,
// torques or impulses through these helpers. Forces act for the whole step (every sub-step) and
// are cleared by the engine afterwards. Forces on a resting item do not wake it (so a resting
// stack stays asleep under gravity); a behaviour that changes wakes its items itself, and a field
// that keeps moving its items (animated noise, a velocity field) keeps them awake
// (`FieldBehavior.keepsItemsAwake`). The engine itself keeps awake an island that rests on nothing
// fixed while these forces do not balance (`World.updateSleep`).
//
// Fields read their items' motion once per step, shared between the fields on the same items
// (`FieldCrowd`). Anything that changes bodies' positions, velocities or sleep during this pass —
// an impulse, a wake, a diagnostic handler (which may run any code) — must call
// `invalidateSharedMotion()`, so the next field reads the engine again; the helpers below do it.

extension DynamicAnimator {
    /// The items in the world, in the order they joined.
    var itemRecords: [ItemRecord] { records }

    /// The item's center (the body origin), in points.
    func center(of r: ItemRecord) -> CGPoint { world.position(r.body).cgPoint }

    /// The velocity of the item's center, in pt/s.
    func velocity(of r: ItemRecord) -> CGPoint {
        world.velocity(r.body, atWorldPoint: world.position(r.body)).cgPoint
    }

    /// The item's angular velocity, in rad/s.
    func angularVelocity(of r: ItemRecord) -> CGFloat { CGFloat(world.angularVelocity(r.body)) }

    /// The item's mass (density × area / 10 000 pt², summed over a group's members); 0 while
    /// anchored.
    func mass(of r: ItemRecord) -> CGFloat { CGFloat(world.mass(r.body)) }

    /// The item's rotational inertia about its center of mass, in mass·pt²; 0 when it may not rotate.
    func rotationalInertia(of r: ItemRecord) -> CGFloat { CGFloat(world.rotationalInertia(r.body)) }

    /// The item's charge, from its ``DynamicItemBehavior``s. Default 0.
    func charge(of r: ItemRecord) -> CGFloat { r.properties.charge }

    /// Whether the item takes forces now: dynamic and awake.
    func isMovable(_ r: ItemRecord) -> Bool {
        !r.properties.isAnchored && world.isAwake(r.body)
    }

    /// Adds `force` (mass·pt/s²) for this step, at `point` (points, world; a torque follows) or,
    /// when nil, at the item's center of mass (no torque). A non-finite force is contained: it is
    /// dropped for this item and reported once.
    func applyForce(_ force: CGVector, to r: ItemRecord, at point: CGPoint? = nil) {
        // Finite as a Double is not enough: the engine computes in Float (at most 3.4·10³⁸).
        guard Vec2(force).isFinite else {
            reportNonFiniteForce(on: r)
            return
        }
        if let point, point.isUsableAnimatorValue {
            world.applyForce(r.body, Vec2(force), at: Vec2(point), wake: false)
        } else {
            world.applyForceToCenter(r.body, Vec2(force), wake: false)
        }
    }

    /// Reports (once) that a force on `r`'s item was not finite and was ignored.
    func reportNonFiniteForce(on r: ItemRecord) {
        reportDuringForces(.nonFiniteForce(item: r.id), "A non-finite force on the \(itemLabel(r.item)) was ignored.")
    }

    /// `reportOnce` for the force pass: a diagnostic handler may change the items' motion, so the
    /// fields' shared read of it is dropped when one is called.
    func reportDuringForces(_ kind: DynamicsDiagnostic.Kind, _ message: String) {
        guard rememberReported(message) else { return }
        report(kind, message)
        invalidateSharedMotion()
    }

    /// Gives the bodies the forces a field crowd holds for them (see `FieldCrowd.hold()`).
    /// Called before anything else in the step touches the bodies' forces or runs code of the
    /// app's: another force behaviour, a field with a crowd of its own or a block, a diagnostic
    /// handler, a wake, and the engine step.
    func storeFieldForces() {
        guard let crowd = crowdHoldingForces else { return }
        crowdHoldingForces = nil
        crowd.storeForces(in: world)
    }

    /// Drops every field's shared read of its items' motion (see `FieldCrowd`): the next field
    /// reads the engine again. For code that changes bodies' motion or sleep during the force pass.
    func invalidateSharedMotion() {
        storeFieldForces()
        for behavior in flat {
            (behavior as? FieldBehavior)?.crowd?.invalidate()
        }
    }

    /// Adds `torque` (mass·pt²/s²) for this step. A non-finite torque is dropped and reported once.
    func applyTorque(_ torque: CGFloat, to r: ItemRecord) {
        guard Float(torque).isFinite else {
            let message = "A non-finite torque on the \(itemLabel(r.item)) was ignored."
            reportDuringForces(.nonFiniteForce(item: r.id), message)
            return
        }
        world.applyTorque(r.body, Float(torque), wake: false)
    }

    /// Applies `impulse` (mass·pt/s) now at `point` (points, world) or, when nil, at the item's
    /// center of mass, and wakes the item.
    ///
    /// It changes the item's velocity at once: the caller calls `invalidateSharedMotion()` after
    /// its impulses (once for a batch; `PushBehavior` does).
    func applyImpulse(_ impulse: CGVector, to r: ItemRecord, at point: CGPoint? = nil) {
        guard Vec2(impulse).isFinite else {
            let message = "A non-finite impulse on the \(itemLabel(r.item)) was ignored."
            reportDuringForces(.nonFiniteForce(item: r.id), message)
            return
        }
        let p = point.flatMap { $0.isUsableAnimatorValue ? Vec2($0) : nil } ?? world.worldCenter(r.body)
        world.applyLinearImpulse(r.body, Vec2(impulse), at: p)
    }
}
