import DynamicsEngine
import Foundation

/// Sets the material and motion properties of its items, and hands them velocities: UIKit's
/// `UIDynamicItemBehavior`.
///
/// Properties and their engine meaning:
/// - ``elasticity``: restitution (0 = no bounce, 1 = fully elastic); mixed as max(e₁, e₂) between
///   items; against a boundary the item's own value applies.
/// - ``friction``: Coulomb coefficient; mixed as √(f₁f₂) between items; the item's own against a
///   boundary.
/// - ``density``: mass = density × area / 10 000 pt² (a 100 × 100 pt item of density 1 has mass 1).
/// - ``resistance``: linear damping in 1/s: every sub-step of h seconds v ← v / (1 + h·resistance).
/// - ``angularResistance``: the same for the angular velocity.
/// - ``charge``: used by electric and magnetic fields only.
/// - ``isAnchored``: the item becomes immovable (a static body: it collides but never moves).
/// - ``allowsRotation``: `false` locks the item's rotation.
///
/// An item without a ``DynamicItemBehavior`` has the defaults (elasticity 0, friction 0,
/// density 1, no resistance, charge 0, not anchored, rotating). When several item behaviours hold
/// one item, each property comes from the **last** behaviour in a depth-first walk of the
/// animator's tree that set it explicitly; removing a behaviour removes its contribution (the
/// defaults return if no other behaviour sets the property). Non-finite or negative values (and a
/// zero density), and values above ``maximumPropertyValue`` (10¹²) in size — the engine computes
/// in `Float`, where a mass or an impulse that large overflows — are reported and the last good
/// value kept.
open class DynamicItemBehavior: DynamicBehavior {
    private var list: ItemList
    private var explicitElasticity: CGFloat?
    private var explicitFriction: CGFloat?
    private var explicitDensity: CGFloat?
    private var explicitResistance: CGFloat?
    private var explicitAngularResistance: CGFloat?
    private var explicitCharge: CGFloat?
    private var explicitAnchored: Bool?
    private var explicitAllowsRotation: Bool?
    /// Velocities asked for before the item was in the world, summed per item in the order first
    /// asked for: applied when it joins. Keyed by the item, so asking costs O(1) however many wait.
    private var pendingVelocities = KeyedList<ObjectIdentifier, WaitingVelocity>()

    /// The largest size of ``elasticity``, ``friction``, ``density``, ``resistance``,
    /// ``angularResistance`` and ``charge``: 10¹².
    public static let maximumPropertyValue: CGFloat = 1e12

    /// Restitution of collisions, 0 (no bounce) … 1 (elastic); more is allowed. Default 0.
    public var elasticity: CGFloat {
        get { explicitElasticity ?? 0 }
        set { set(\.explicitElasticity, newValue, "elasticity") }
    }

    /// Coulomb friction coefficient, ≥ 0. Default 0.
    public var friction: CGFloat {
        get { explicitFriction ?? 0 }
        set { set(\.explicitFriction, newValue, "friction") }
    }

    /// Mass per area: mass = density × area / 10 000 pt². Must be > 0. Default 1.
    public var density: CGFloat {
        get { explicitDensity ?? 1 }
        set {
            guard newValue.isFinite, newValue > 0, newValue <= Self.maximumPropertyValue else {
                report(.refused("DynamicItemBehavior.density", isFinite: newValue.isFinite),
                       "DynamicItemBehavior.density must be finite, positive and at most 10¹², not \(newValue); the last good value is kept.")
                return
            }
            set(\.explicitDensity, newValue, "density")
        }
    }

    /// Linear damping, in 1/s (0 = none; 1 loses about 63 % of the speed per second). Default 0.
    public var resistance: CGFloat {
        get { explicitResistance ?? 0 }
        set { set(\.explicitResistance, newValue, "resistance") }
    }

    /// Angular damping, in 1/s. Default 0.
    public var angularResistance: CGFloat {
        get { explicitAngularResistance ?? 0 }
        set { set(\.explicitAngularResistance, newValue, "angularResistance") }
    }

    /// Electric charge, unitless, any sign; used by electric and magnetic fields. Default 0.
    public var charge: CGFloat {
        get { explicitCharge ?? 0 }
        set { set(\.explicitCharge, newValue, "charge", allowsNegative: true) }
    }

    /// Whether the items are fixed in place: they collide but never move. Default `false`.
    public var isAnchored: Bool {
        get { explicitAnchored ?? false }
        set { update(\.explicitAnchored, to: newValue, needsSync: true) }
    }

    /// Whether the items may rotate. Default `true`.
    public var allowsRotation: Bool {
        get { explicitAllowsRotation ?? true }
        set { update(\.explicitAllowsRotation, to: newValue, needsSync: true) }
    }

    /// A material property's setter: within ±``maximumPropertyValue`` (and not negative unless
    /// allowed), then the shared `update`; the world is synchronised, as materials live on shapes.
    private func set(_ keyPath: ReferenceWritableKeyPath<DynamicItemBehavior, CGFloat?>, _ value: CGFloat,
                     _ name: String, allowsNegative: Bool = false) {
        guard validate(value, name, allowsNegative: allowsNegative, maximum: Self.maximumPropertyValue) else { return }
        update(keyPath, to: value, needsSync: true)
    }

    /// Creates an item behaviour for `items`, with every property at its default.
    ///
    /// - Parameter items: The items; default none.
    public init(items: [any DynamicItem] = []) {
        list = ItemList(items)
        super.init()
    }

    /// The items, in the order added.
    public var items: [any DynamicItem] { list.items }

    /// Adds `item` (ignored if already present).
    public func addItem(_ item: any DynamicItem) {
        if list.add(item) { itemsDidChange([item]) }
    }

    /// Removes `item`; an item the behaviour does not have changes nothing (a note says so, as UIKit ignores it); its properties fall back to other item behaviours'
    /// or the defaults.
    public func removeItem(_ item: any DynamicItem) {
        if list.remove(item) { itemsDidChange([item]) } else { reportNotHeld(item) }
    }

    // MARK: Velocity

    /// Adds `velocity` (pt/s) to `item`'s linear velocity. Before the item is in an animator's
    /// world the velocities accumulate and are applied when it joins. Resumes a paused animator.
    /// Given while the animator has changes waiting (an item just added, say), the velocity is
    /// applied when they are, before the next step or query, in the order velocities were
    /// given; an item added and removed again before then never was in the world, so its
    /// velocity waits for it to join. Costs O(1) either way.
    /// A non-finite velocity, or one beyond ±10⁷ pt/s per axis, is reported and ignored (the engine
    /// caps speeds at 40 000 pt/s anyway).
    ///
    /// - Parameters:
    ///   - velocity: The velocity to add, in points per second.
    ///   - item: The item.
    public func addLinearVelocity(_ velocity: CGPoint, for item: any DynamicItem) {
        guard validate(velocity, "addLinearVelocity(_:for:)") else { return }
        addVelocity(linear: velocity, angular: 0, for: item)
    }

    /// `item`'s linear velocity (its center's), in pt/s; before it is in the world, the velocity
    /// waiting to be applied.
    ///
    /// - Parameter item: The item.
    public func linearVelocity(for item: any DynamicItem) -> CGPoint {
        if let animator = dynamicAnimator {
            animator.ensureSynced()
            if let r = animator.record(for: item) { return animator.velocity(of: r) }
        }
        return pendingVelocities[ObjectIdentifier(item)]?.linear ?? .zero
    }

    /// Adds `velocity` (rad/s; positive turns +x toward +y) to `item`'s angular velocity. Before
    /// the item is in an animator's world the velocities accumulate; while changes wait, as
    /// ``addLinearVelocity(_:for:)``. Resumes a paused animator.
    /// A non-finite velocity, or one above 10⁷ rad/s in size, is reported and ignored.
    ///
    /// - Parameters:
    ///   - velocity: The angular velocity to add, in radians per second.
    ///   - item: The item.
    public func addAngularVelocity(_ velocity: CGFloat, for item: any DynamicItem) {
        guard validate(velocity, "addAngularVelocity(_:for:)", allowsNegative: true, maximum: 10_000_000) else { return }
        addVelocity(linear: .zero, angular: velocity, for: item)
    }

    /// `item`'s angular velocity, in rad/s; before it is in the world, the velocity waiting to be
    /// applied.
    ///
    /// - Parameter item: The item.
    public func angularVelocity(for item: any DynamicItem) -> CGFloat {
        if let animator = dynamicAnimator {
            animator.ensureSynced()
            if let r = animator.record(for: item) { return animator.angularVelocity(of: r) }
        }
        return pendingVelocities[ObjectIdentifier(item)]?.angular ?? 0
    }

    private func addVelocity(linear: CGPoint, angular: CGFloat, for item: any DynamicItem) {
        if let animator = dynamicAnimator {
            if animator.syncIsDue {
                // Synchronising now, to learn whether the item is in the world, would cost a pass
                // over the whole world per call (launching n new items, each given a velocity as
                // it is added, was O(n²)). The velocity waits for the next synchronisation (before
                // the next step or query), which applies it after the changes waiting with it, in
                // the order asked for: bit for bit what synchronising now would have done, unless
                // the item leaves (or leaves, is moved and rejoins) before then.
                animator.deferredVelocities.append(DeferredVelocity(behavior: self, item: item, linear: linear, angular: angular))
                animator.tickle()
                return
            }
            if let r = animator.record(for: item) {
                apply(linear: linear, angular: angular, to: r, in: animator)
                animator.wake([item])
                return
            }
        }
        wait(linear: linear, angular: angular, for: item)
        dynamicAnimator?.tickle()
    }

    /// Adds the velocity to what waits for `item` until it joins the world.
    private func wait(linear: CGPoint, angular: CGFloat, for item: any DynamicItem) {
        let key = ObjectIdentifier(item)
        let found = pendingVelocities.modify(key) { w in
            w.linear.x += linear.x
            w.linear.y += linear.y
            w.angular += angular
        }
        if !found { pendingVelocities.set(WaitingVelocity(item: item, linear: linear, angular: angular), for: key) }
    }

    /// A velocity deferred by `addVelocity`, at the synchronisation after it: applied to the item's
    /// body, or, when the item is not in the world, left waiting for it.
    func applyDeferred(_ v: DeferredVelocity, in animator: DynamicAnimator) {
        if let r = animator.record(for: v.item) {
            apply(linear: v.linear, angular: v.angular, to: r, in: animator)
            animator.world.wake(r.body)
        } else {
            wait(linear: v.linear, angular: v.angular, for: v.item)
        }
    }

    /// A velocity deferred by `addVelocity` that a restore replaced the world of: it waits as
    /// one asked for outside the world, so the restored state (which names the velocities waiting
    /// for the behaviour's own items) decides for those items, and others keep it.
    func keepDeferred(_ v: DeferredVelocity) {
        wait(linear: v.linear, angular: v.angular, for: v.item)
    }

    private func apply(linear: CGPoint, angular: CGFloat, to r: ItemRecord, in animator: DynamicAnimator) {
        let world = animator.world
        let v = world.linearVelocity(r.body)
        world.setLinearVelocity(r.body, Vec2(v.x + Float(linear.x), v.y + Float(linear.y)))
        if angular != 0 { world.setAngularVelocity(r.body, world.angularVelocity(r.body) + Float(angular)) }
    }

    // MARK: Animator hooks

    override var heldItems: [any DynamicItem] { list.items }

    /// Writes the explicitly set properties over `p` (depth-first order makes the last writer win).
    func overlay(_ p: inout ItemProperties) {
        if let v = explicitElasticity { p.elasticity = v }
        if let v = explicitFriction { p.friction = v }
        if let v = explicitDensity { p.density = v }
        if let v = explicitResistance { p.resistance = v }
        if let v = explicitAngularResistance { p.angularResistance = v }
        if let v = explicitCharge { p.charge = v }
        if let v = explicitAnchored { p.isAnchored = v }
        if let v = explicitAllowsRotation { p.allowsRotation = v }
    }

    override func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {
        for v in [explicitElasticity, explicitFriction, explicitDensity, explicitResistance, explicitAngularResistance, explicitCharge] {
            writer.add(v)
        }
        writer.add(explicitAnchored)
        writer.add(explicitAllowsRotation)
        // Velocities waiting for an item of this behaviour, by the item's index in `items`.
        var index: [ObjectIdentifier: Int] = [:]
        if !pendingVelocities.isEmpty {
            for (i, item) in list.items.enumerated() { index[ObjectIdentifier(item)] = i }
        }
        let named = pendingVelocities.entries.compactMap { entry in index[entry.key].map { (index: $0, entry: entry.value) } }
        writer.add(named.count)
        for n in named {
            writer.add(n.index)
            writer.add(n.entry.linear)
            writer.add(n.entry.angular)
        }
    }

    override func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        let elasticity = try reader.optionalNonNegative(), friction = try reader.optionalNonNegative()
        let density = try reader.optionalNonNegative()
        guard density.map({ $0 > 0 }) ?? true else { throw reader.corrupt("density must be positive") }
        let resistance = try reader.optionalNonNegative(), angularResistance = try reader.optionalNonNegative()
        let charge = try reader.optionalFinite()
        let anchored = try reader.optionalBool(), rotates = try reader.optionalBool()
        let items = list.items
        var waiting = KeyedList<ObjectIdentifier, WaitingVelocity>()
        for _ in 0..<(try reader.count(perEntry: 4)) {
            let i = try reader.int(0...max(0, items.count - 1))
            guard !items.isEmpty else { throw reader.corrupt("a velocity for an item the behaviour does not have") }
            let entry = WaitingVelocity(item: items[i], linear: try reader.point(), angular: try reader.finite())
            // The animator writes one sum per item.
            guard waiting.set(entry, for: ObjectIdentifier(items[i])) == nil else { throw reader.corrupt("two velocities for item \(i)") }
        }
        return { [self] in
            explicitElasticity = elasticity
            explicitFriction = friction
            explicitDensity = density
            explicitResistance = resistance
            explicitAngularResistance = angularResistance
            explicitCharge = charge
            explicitAnchored = anchored
            explicitAllowsRotation = rotates
            // Velocities for items outside the behaviour (applied if they join it) are kept, after
            // the restored ones.
            for (key, entry) in pendingVelocities.entries where !list.contains(entry.item) { waiting.set(entry, for: key) }
            pendingVelocities = waiting
        }
    }

    override func syncWorld(_ animator: DynamicAnimator) {
        guard !pendingVelocities.isEmpty else { return }
        var waiting = KeyedList<ObjectIdentifier, WaitingVelocity>()
        for (key, entry) in pendingVelocities.entries {
            if let r = animator.record(for: entry.item) {
                apply(linear: entry.linear, angular: entry.angular, to: r, in: animator)
                animator.world.wake(r.body)
            } else {
                waiting.set(entry, for: key)
            }
        }
        pendingVelocities = waiting
    }
}

/// A velocity waiting for its item to join the world (the sum of those asked for meanwhile).
struct WaitingVelocity {
    var item: any DynamicItem
    /// pt/s.
    var linear: CGPoint
    /// rad/s.
    var angular: CGFloat
}

/// A velocity asked for while the animator had changes waiting for its next synchronisation:
/// applied, in the order asked for, at the end of that synchronisation.
struct DeferredVelocity {
    let behavior: DynamicItemBehavior
    let item: any DynamicItem
    /// pt/s.
    let linear: CGPoint
    /// rad/s.
    let angular: CGFloat
}
