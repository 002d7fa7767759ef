import Foundation

/// The base of every behaviour, and of composite behaviours you write: UIKit's `UIDynamicBehavior`.
///
/// Behaviours form trees: a behaviour's ``childBehaviors`` are part of the animator whenever the
/// behaviour is. Subclass it and add children in your initializer to build a composite behaviour
/// (a pendulum of gravity plus an attachment, say); set ``action`` to run code after every step.
///
/// A behaviour belongs to one animator at a time and appears once in its tree. Adding it twice,
/// to a second animator or under a second parent is reported as a ``DynamicsDiagnostic`` and
/// ignored. Behaviours may be added, removed and changed at any time, including from `action`
/// blocks and delegate callbacks; changes made during a step's callbacks take effect at the end
/// of that step.
///
/// Behaviours are not `Sendable`: they live in the isolation domain of their animator.
open class DynamicBehavior {
    /// The child behaviours, in the order added. Default empty.
    public var childBehaviors: [DynamicBehavior] { children.elements }

    /// The children, with adding and removing one in amortised O(1) (a composite of thousands).
    private var children = IdentityList<DynamicBehavior>()

    /// A block the animator calls after every step (after the collision callbacks), with the
    /// items' new centers and transforms already written. Default `nil`.
    public var action: (() -> Void)?

    /// The animator whose tree contains this behaviour, or `nil`.
    public internal(set) weak var dynamicAnimator: DynamicAnimator?

    /// The behaviour this one is a child of.
    weak var parent: DynamicBehavior?

    /// Diagnostics raised while the behaviour was in no animator; delivered when it joins one.
    var pendingDiagnostics: [DynamicsDiagnostic] = []

    /// Creates a behaviour with no children and no action.
    public init() {}

    /// Releasing a chain of behaviours nested n deep would release each child from inside its
    /// parent's deinit, n frames deep: about 33 000 links overflowed the stack. The children this
    /// behaviour held the last reference to are taken apart here instead, level by level, so
    /// each is released with no children left.
    deinit {
        var orphans = children.takeAll()
        while var child = orphans.popLast() {
            if isKnownUniquelyReferenced(&child) { orphans += child.children.takeAll() }
        }
    }

    /// Adds `behavior` as the last child. A behaviour that already has a parent or belongs to an
    /// animator, the behaviour itself, or one of its ancestors is refused with a diagnostic.
    ///
    /// - Parameter behavior: The child to add.
    public func addChildBehavior(_ behavior: DynamicBehavior) {
        if behavior === self {
            report(.behaviorCycle(behavior: ObjectIdentifier(behavior)),
                   "addChildBehavior: a \(behaviorLabel(self)) cannot be its own child; ignored.")
            return
        }
        // Only a behaviour with children can be an ancestor: a leaf (a chain grown at its deep
        // end) is added without walking up the tree, which made building a chain of n O(n²).
        var ancestor = behavior.children.isEmpty ? nil : parent
        while let a = ancestor {
            if a === behavior {
                report(.behaviorCycle(behavior: ObjectIdentifier(behavior)),
                       "addChildBehavior: the \(behaviorLabel(behavior)) is an ancestor of this \(behaviorLabel(self)); ignored (a cycle).")
                return
            }
            ancestor = a.parent
        }
        if behavior.parent != nil || behavior.dynamicAnimator != nil {
            report(.behaviorAlreadyPlaced(behavior: ObjectIdentifier(behavior)),
                   "addChildBehavior: the \(behaviorLabel(behavior)) already has a parent or belongs to an animator; ignored.")
            return
        }
        _ = children.append(behavior)
        behavior.parent = self
        dynamicAnimator?.behaviorTreeDidChange(at: behavior)
    }

    /// Removes `behavior` from the children. A behaviour that is not a child changes nothing, as
    /// in UIKit; a ``DynamicsDiagnostic/Severity-swift.enum/note`` says so.
    ///
    /// - Parameter behavior: The child to remove.
    public func removeChildBehavior(_ behavior: DynamicBehavior) {
        guard behavior.parent === self, children.remove(behavior) else {
            report(.nothingToRemove,
                   "removeChildBehavior: the \(behaviorLabel(behavior)) is not a child of this \(behaviorLabel(self)); nothing to remove (UIKit ignores this too).",
                   severity: .note)
            return
        }
        behavior.parent = nil
        dynamicAnimator?.behaviorTreeDidChange(at: behavior, removal: true)
    }

    /// Called just before the behaviour joins an animator (`animator` non-nil) or leaves one
    /// (`nil`). ``dynamicAnimator`` still holds the old value. The default does nothing.
    ///
    /// - Parameter animator: The animator being joined, or `nil` when leaving.
    open func willMove(to animator: DynamicAnimator?) {}

    // MARK: Hooks for the animator (internal)
    //
    // The animator drives every behaviour through these, in depth-first order, so one pipeline
    // serves gravity, push, snap, attachments, collisions, item properties and fields:
    // `heldItems` decides which items are in the world; `attach`/`detach` claim and release
    // per-animator resources; `syncWorld` brings joints and boundaries up to date before a step;
    // `applyForces` runs once per step, before the engine step.

    /// The items this behaviour puts into the animator's world.
    var heldItems: [any DynamicItem] { [] }

    /// Whether the behaviour holds `item` (identity).
    func holds(_ item: any DynamicItem) -> Bool {
        heldItems.contains { $0 === item }
    }

    /// Called after the behaviour joined `animator` (``dynamicAnimator`` is set).
    func attach(to animator: DynamicAnimator) {}

    /// Called when the behaviour leaves `animator`: release world objects it created.
    func detach(from animator: DynamicAnimator) {}

    /// Brings the behaviour's world objects (joints, boundaries) up to date; called in
    /// depth-first order after the items' bodies exist, whenever the animator synchronises.
    func syncWorld(_ animator: DynamicAnimator) {}

    /// Applies this step's forces and impulses; called once per step before the engine step, for
    /// the behaviours whose `appliesForces` is true. A subclass that overrides it overrides
    /// `appliesForces` too.
    ///
    /// - Parameters:
    ///   - animator: The animator being stepped.
    ///   - dt: The step, in seconds.
    func applyForces(in animator: DynamicAnimator, dt: TimeInterval) {}

    /// Whether the behaviour has per-step work in `applyForces(in:dt:)`: only those are called
    /// each step (in depth-first order), so a scene of many attachments does not visit them all
    /// to do nothing (ui_chains' 1 200: 2 % of its step). Default false.
    var appliesForces: Bool { false }

    // MARK: Snapshot hooks (internal)
    //
    // `DynamicAnimator.snapshot()` asks every behaviour, in depth-first order, for its state and
    // `restore(_:)` hands it back in two phases: `restoreState` reads and checks everything and
    // returns the change to make, which runs only once every behaviour and the animator accepted
    // their parts — so a corrupt snapshot leaves everything as it was.

    /// Settings fixed at creation that cannot be restored (a push's mode, an attachment's kind, a
    /// collision behaviour's boundaries): part of the configuration a snapshot must find. Default "".
    var snapshotSignature: String { "" }

    /// Appends the behaviour's state (property values, bookkeeping, engine ids) to `writer`.
    /// Default: nothing.
    func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {}

    /// Reads what `saveState` wrote, checking every value against `context`, and returns the
    /// change that puts it back (run after the animator's own state is restored). Default: nothing.
    func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        {}
    }

    /// Tells the animator that something that can move the behaviour's items changed: wakes the
    /// items, resumes a paused animator and, when `needsSync`, refreshes world objects before
    /// the next step.
    func didChange(needsSync: Bool = false) {
        dynamicAnimator?.behaviorDidChange(self, needsSync: needsSync)
    }

    /// Tells the animator that items were added to or removed from this behaviour: they may join
    /// or leave the world, and they (and their neighbours) wake.
    func itemsDidChange(_ items: [any DynamicItem]) {
        dynamicAnimator?.behaviorItemsDidChange(items)
    }

    /// Reports a diagnostic now (in an animator) or when the behaviour joins one.
    func report(_ kind: DynamicsDiagnostic.Kind, _ message: String, severity: DynamicsDiagnostic.Severity = .warning) {
        let diagnostic = DynamicsDiagnostic(kind: kind, message: message, severity: severity)
        if let animator = dynamicAnimator {
            animator.report(diagnostic)
        } else {
            pendingDiagnostics.append(diagnostic)
        }
    }

    /// Reports a `removeItem(_:)` of an item the behaviour does not have.
    func reportNotHeld(_ item: any DynamicItem) {
        report(.nothingToRemove,
               "\(behaviorLabel(self)).removeItem: the \(itemLabel(item)) is not one of its items; nothing to remove (UIKit ignores this too).",
               severity: .note)
    }

    /// Whether `value` is finite, not negative (unless allowed) and at most `maximum` in size;
    /// otherwise reports it and returns false.
    func validate(_ value: CGFloat, _ name: String, allowsNegative: Bool = false, maximum: CGFloat = .infinity) -> Bool {
        guard value.isFinite, allowsNegative || value >= 0, abs(value) <= maximum else {
            let range = maximum.isFinite ? " (at most \(maximum) in size)" : ""
            report(.refused("\(behaviorLabel(self)).\(name)", isFinite: value.isFinite),
                   "\(behaviorLabel(self)).\(name) cannot be \(value)\(range); the last good value is kept.")
            return false
        }
        return true
    }

    /// Whether `point` is finite and within ±10⁷ pt; otherwise reports it and returns false.
    func validate(_ point: CGPoint, _ name: String) -> Bool {
        guard point.isUsableAnimatorValue else {
            report(.refused("\(behaviorLabel(self)).\(name)", point),
                   "\(behaviorLabel(self)).\(name) cannot be (\(point.x), \(point.y)) (finite, within ±10⁷ pt); the last good value is kept.")
            return false
        }
        return true
    }

    /// Whether both components of `vector` are finite; otherwise reports it and returns false.
    func validate(_ vector: CGVector, _ name: String) -> Bool {
        guard vector.dx.isFinite, vector.dy.isFinite else {
            let property = "\(behaviorLabel(self)).\(name)"
            let message = "\(property) cannot be (\(vector.dx), \(vector.dy)); the last good value is kept."
            report(.nonFiniteValue(property: property), message)
            return false
        }
        return true
    }
}

/// The property setters' helpers, for every behaviour: `Self` lets them take key paths to a
/// subclass's private storage.
///
/// They take key paths, not `inout` storage, on purpose: a refused value is reported and a change
/// resumes the animator, and both call the app (its diagnostic handler, its animator delegate)
/// while the setter runs. Storage passed `inout` would be under an exclusive access all that time,
/// so an app that reads the property from those callbacks would stop the program ("simultaneous
/// accesses"); a key path reads and writes only for the moment it takes.
protocol BehaviorSetters: DynamicBehavior {}

extension DynamicBehavior: BehaviorSetters {}

extension BehaviorSetters {
    /// The setters' one helper: stores `value` at `keyPath` when it differs, runs `derived` (state
    /// computed from it: a field's noise frequency, an attachment's joint), then tells the animator
    /// (``DynamicBehavior/didChange(needsSync:)``): an equal value wakes nothing. Validate the value
    /// first (`validate`). Returns whether it changed.
    @discardableResult
    func update<Value: Equatable>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>, to value: Value, needsSync: Bool = false,
        derived: () -> Void = {}
    ) -> Bool {
        guard self[keyPath: keyPath] != value else { return false }
        self[keyPath: keyPath] = value
        derived()
        didChange(needsSync: needsSync)
        return true
    }

    // Gravity and push expose one `PolarVector` as a vector, an angle and a magnitude: their
    // setters, once. Non-finite values are reported and ignored.

    /// Sets the vector of the direction at `keyPath` (the property `name`).
    func updateDirection(_ keyPath: ReferenceWritableKeyPath<Self, PolarVector>, vector: CGVector, name: String) {
        guard validate(vector, name), vector != self[keyPath: keyPath].vector else { return }
        self[keyPath: keyPath].setVector(vector)
        didChange()
    }

    /// Sets the angle (radians) of the direction at `keyPath`, keeping its magnitude.
    func updateDirection(_ keyPath: ReferenceWritableKeyPath<Self, PolarVector>, angle: CGFloat) {
        guard validate(angle, "angle", allowsNegative: true), angle != self[keyPath: keyPath].angle else { return }
        self[keyPath: keyPath].setAngle(angle)
        didChange()
    }

    /// Sets the magnitude of the direction at `keyPath`, keeping its angle.
    func updateDirection(_ keyPath: ReferenceWritableKeyPath<Self, PolarVector>, magnitude: CGFloat) {
        guard validate(magnitude, "magnitude", allowsNegative: true),
              magnitude != self[keyPath: keyPath].magnitude else { return }
        self[keyPath: keyPath].setMagnitude(magnitude)
        didChange()
    }

    /// Sets the angle and magnitude of the direction at `keyPath` together; the animator hears of
    /// it (and the items wake) even when they are unchanged, as `setAngle(_:magnitude:)` always
    /// did here.
    func updateDirection(_ keyPath: ReferenceWritableKeyPath<Self, PolarVector>, angle: CGFloat, magnitude: CGFloat) {
        guard validate(angle, "angle", allowsNegative: true),
              validate(magnitude, "magnitude", allowsNegative: true) else { return }
        self[keyPath: keyPath].set(angle: angle, magnitude: magnitude)
        didChange()
    }
}
