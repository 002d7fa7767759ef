import Foundation

/// Pushes its items with a force (continuous) or an impulse (instantaneous): UIKit's
/// `UIPushBehavior`.
///
/// ``pushDirection`` is in UIKit force units: magnitude 1 is a force of 100 mass·pt/s² — an
/// acceleration of 100 pt/s² on a 100 × 100 pt item of density 1 (mass 1) — in
/// ``Mode-swift.enum/continuous`` mode, or an impulse of 100 mass·pt/s — a change of velocity of
/// 100 pt/s on that item — in ``Mode-swift.enum/instantaneous`` mode. Heavier items accelerate less.
///
/// The push acts at each item's center of mass, or at the item's center plus its target offset
/// (``setTargetOffsetFromCenter(_:for:)``; the offset is in the animator's axes, not rotated with
/// the item), where it also turns the item.
open class PushBehavior: DynamicBehavior {
    /// How a push acts. Raw values are UIKit's.
    public enum Mode: Int, Sendable, Hashable, Codable {
        /// A constant force, every step while ``PushBehavior/active``.
        case continuous = 0
        /// One impulse, on the next step while ``PushBehavior/active``; then `active` becomes `false`.
        case instantaneous = 1
    }

    /// How the push acts; fixed at creation.
    public let mode: Mode

    private var list: ItemList
    private var direction = PolarVector(.zero)
    private var storedActive = true
    /// Lookup only: target offsets by item identity.
    private var offsets: [ObjectIdentifier: CGPoint] = [:]

    /// Whether the push acts. Default `true`. An instantaneous push sets it to `false` once it
    /// has applied its impulse; set it to `true` again to push again. Setting it resumes a paused
    /// animator.
    public var active: Bool {
        get { storedActive }
        set { update(\.storedActive, to: newValue) }
    }

    /// The push as a vector in UIKit force units (1 = 100 mass·pt/s², or 100 mass·pt/s for an
    /// impulse). Default `.zero`. Setting it updates ``angle`` and ``magnitude``. A non-finite
    /// vector is reported and ignored.
    public var pushDirection: CGVector {
        get { direction.vector }
        set { updateDirection(\.direction, vector: newValue, name: "pushDirection") }
    }

    /// The direction of the push, in radians from +x toward +y. Default 0. Setting it keeps the
    /// magnitude. A non-finite angle is reported and ignored.
    public var angle: CGFloat {
        get { direction.angle }
        set { updateDirection(\.direction, angle: newValue) }
    }

    /// The strength of the push in UIKit force units (1 = 100 mass·pt/s² or 100 mass·pt/s).
    /// Default 0 (no push). Setting it keeps the angle; 0 zeroes the vector and the angle; a
    /// negative value reverses the push. A non-finite value is reported and ignored.
    public var magnitude: CGFloat {
        get { direction.magnitude }
        set { updateDirection(\.direction, magnitude: newValue) }
    }

    /// Sets ``angle`` (radians) and ``magnitude`` (UIKit force units) together. Non-finite values
    /// are reported and ignored.
    ///
    /// - Parameters:
    ///   - angle: The direction, in radians from +x toward +y.
    ///   - magnitude: The strength; 1 = 100 mass·pt/s² (or mass·pt/s).
    public func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        updateDirection(\.direction, angle: angle, magnitude: magnitude)
    }

    /// Creates a push for `items`, with no push yet (``magnitude`` 0) and ``active`` `true`.
    ///
    /// - Parameters:
    ///   - items: The items to push; default none.
    ///   - mode: Continuous force or one impulse; default `.continuous`.
    public init(items: [any DynamicItem] = [], mode: Mode = .continuous) {
        self.mode = mode
        list = ItemList(items)
        super.init()
    }

    /// The items pushed, in the order added.
    public var items: [any DynamicItem] { list.items }

    /// Adds `item` (ignored if already present).
    public func addItem(_ item: any DynamicItem) {
        if list.add(item) { itemsDidChange([item]) }
    }

    /// Removes `item`; an item the behaviour does not have changes nothing (a note says so, as UIKit ignores it).
    public func removeItem(_ item: any DynamicItem) {
        if list.remove(item) { itemsDidChange([item]) } else { reportNotHeld(item) }
    }

    /// Makes the push act on `item` at `offset` from its center (points, in the animator's axes)
    /// instead of at its center of mass, so it also turns the item. Default `.zero` for every item.
    /// A non-finite offset, or one beyond ±10⁷ pt, is reported and ignored.
    ///
    /// - Parameters:
    ///   - offset: The point of application relative to the item's center, in points.
    ///   - item: The item.
    public func setTargetOffsetFromCenter(_ offset: CGPoint, for item: any DynamicItem) {
        guard validate(offset, "targetOffsetFromCenter") else { return }
        offsets[ObjectIdentifier(item)] = offset == .zero ? nil : offset
        didChange()
    }

    /// The target offset of `item`, in points from its center; `.zero` unless set.
    ///
    /// - Parameter item: The item.
    public func targetOffsetFromCenter(for item: any DynamicItem) -> CGPoint {
        offsets[ObjectIdentifier(item)] ?? .zero
    }

    override var heldItems: [any DynamicItem] { list.items }

    override var snapshotSignature: String { "mode \(mode.rawValue)" }

    override func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {
        writer.add(direction.vector)
        writer.add(direction.angle)
        writer.add(storedActive)
        let items = list.items
        let withOffsets = items.indices.filter { offsets[ObjectIdentifier(items[$0])] != nil }
        writer.add(withOffsets.count)
        for i in withOffsets {
            writer.add(i)
            writer.add(offsets[ObjectIdentifier(items[i])] ?? .zero)
        }
    }

    override func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        let saved = PolarVector(vector: try reader.vector(), angle: try reader.finite())
        let active = try reader.bool()
        let items = list.items
        var savedOffsets: [(ObjectIdentifier, CGPoint)] = []
        for _ in 0..<(try reader.count(perEntry: 3)) {
            let i = try reader.int(0...max(0, items.count - 1))
            guard !items.isEmpty else { throw reader.corrupt("a target offset for an item the push does not have") }
            savedOffsets.append((ObjectIdentifier(items[i]), try reader.point()))
        }
        return { [self] in
            direction = saved
            storedActive = active
            // Offsets of items outside the push (kept for when they join it) stay as they are.
            for item in items { offsets[ObjectIdentifier(item)] = nil }
            for (id, offset) in savedOffsets { offsets[id] = offset }
        }
    }

    override var appliesForces: Bool { true }

    override func applyForces(in animator: DynamicAnimator, dt: TimeInterval) {
        guard storedActive else { return }
        let v = direction.vector
        let push = CGVector(dx: UIKitUnits.pushForce * v.dx, dy: UIKitUnits.pushForce * v.dy)
        switch mode {
        case .continuous:
            guard push.dx != 0 || push.dy != 0 else { return }
            for item in list.items {
                guard let r = animator.record(for: item), animator.isMovable(r) else { continue }
                animator.applyForce(push, to: r, at: point(of: r, item, animator))
            }
        case .instantaneous:
            var applied = false
            for item in list.items {
                guard let r = animator.record(for: item) else { continue }
                applied = true
                guard !r.properties.isAnchored, push.dx != 0 || push.dy != 0 else { continue }
                animator.applyImpulse(push, to: r, at: point(of: r, item, animator))
            }
            // Spent: it waits (stays active) only while none of its items is in the world yet.
            if applied {
                storedActive = false
                // The impulses changed velocities: fields after this one read them again.
                animator.invalidateSharedMotion()
            }
        }
    }

    /// The world point where the push acts on `item`, or nil for the center of mass.
    private func point(of r: ItemRecord, _ item: any DynamicItem, _ animator: DynamicAnimator) -> CGPoint? {
        guard let offset = offsets[ObjectIdentifier(item)] else { return nil }
        let c = animator.center(of: r)
        return CGPoint(x: c.x + offset.x, y: c.y + offset.y)
    }
}
