import DynamicsEngine
import Foundation

/// Pulls its items in one direction with the same acceleration whatever their mass: UIKit's
/// `UIGravityBehavior`.
///
/// The acceleration is ``gravityDirection`` × 1000 pt/s²: the default `(0, 1)` (``magnitude`` 1,
/// ``angle`` π/2) accelerates items down the screen at 1000 pt/s². Each step the behaviour applies
/// the force m·g to each of its items (m = the item's mass), so it acts only on its own items and
/// several gravity behaviours on one item add up (UIKit leaves that case undefined). A resting item
/// stays asleep under gravity; changing the gravity wakes the items.
///
/// Free fall is integrated with semi-implicit Euler over the solver's sub-steps: after N sub-steps
/// of h seconds from rest an item has fallen ½·g·t²·(1 + 1/N), t = N·h.
open class GravityBehavior: DynamicBehavior {
    private var list: ItemList
    private var direction = PolarVector(CGVector(dx: 0, dy: 1))

    /// The acceleration in units of 1000 pt/s², as a vector (y down). Default `(0, 1)`. Setting
    /// it updates ``angle`` and ``magnitude``. A non-finite vector is reported and ignored.
    public var gravityDirection: CGVector {
        get { direction.vector }
        set { updateDirection(\.direction, vector: newValue, name: "gravityDirection") }
    }

    /// The direction of the acceleration, in radians from +x toward +y. Default π/2 (down).
    /// Setting it keeps the magnitude. A non-finite angle is reported and ignored.
    public var angle: CGFloat {
        get { direction.angle }
        set { updateDirection(\.direction, angle: newValue) }
    }

    /// The strength of the acceleration: 1 = 1000 pt/s². Default 1. Setting it keeps the angle;
    /// 0 makes ``gravityDirection`` zero and resets ``angle`` to 0 (as UIKit); a negative value
    /// reverses the direction. A non-finite value is reported and ignored.
    public var magnitude: CGFloat {
        get { direction.magnitude }
        set { updateDirection(\.direction, magnitude: newValue) }
    }

    /// Sets ``angle`` (radians) and ``magnitude`` (1 = 1000 pt/s²) together. Non-finite values
    /// are reported and ignored.
    ///
    /// - Parameters:
    ///   - angle: The direction, in radians from +x toward +y.
    ///   - magnitude: The strength; 1 = 1000 pt/s².
    public func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        updateDirection(\.direction, angle: angle, magnitude: magnitude)
    }

    /// Creates a gravity behaviour for `items` with the default gravity (down, 1000 pt/s²).
    ///
    /// - Parameter items: The items to pull; default none.
    public init(items: [any DynamicItem] = []) {
        list = ItemList(items)
        super.init()
    }

    /// The items pulled, in the order added.
    public var items: [any DynamicItem] { list.items }

    /// Adds `item` (ignored if already present). The item joins the animator's world if needed.
    public func addItem(_ item: any DynamicItem) {
        if list.add(item) { itemsDidChange([item]) }
    }

    /// Removes `item`; an item the behaviour does not have changes nothing (a note says so, as UIKit ignores it).
    public func removeItem(_ item: any DynamicItem) {
        if list.remove(item) { itemsDidChange([item]) } else { reportNotHeld(item) }
    }

    override var heldItems: [any DynamicItem] { list.items }

    override func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {
        writer.add(direction.vector)
        writer.add(direction.angle)
    }

    override func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        let saved = PolarVector(vector: try reader.vector(), angle: try reader.finite())
        return { [self] in
            direction = saved
            // The cached records belong to the animator's old records.
            if let animator = dynamicAnimator { syncWorld(animator) }
        }
    }

    override var appliesForces: Bool { true }

    override func applyForces(in animator: DynamicAnimator, dt: TimeInterval) {
        let g = direction.vector
        guard g.dx != 0 || g.dy != 0 else { return }
        let gx = UIKitUnits.gravityAcceleration * g.dx, gy = UIKitUnits.gravityAcceleration * g.dy
        // m·g on every awake, movable item in one engine call (anchored items are static bodies,
        // which it skips); an item whose force is not finite is reported, as `applyForce` would.
        let rejected = animator.world.applyAcceleration(x: Double(gx), y: Double(gy), to: bodies)
        for k in rejected { animator.reportNonFiniteForce(on: records[k]) }
    }

    /// The records of the items in the world, in item order: refreshed whenever the animator
    /// synchronises (after any change to items or behaviours), so a step looks nothing up.
    private var records: [ItemRecord] = []

    /// The records' bodies, in the same order.
    private var bodies: [BodyID] = []

    override func syncWorld(_ animator: DynamicAnimator) {
        records = list.items.compactMap { animator.record(for: $0) }
        bodies = records.map(\.body)
    }

    override func detach(from animator: DynamicAnimator) {
        records = []
        bodies = []
    }
}
