import DynamicsEngine
import Foundation

/// Runs the physics of its behaviours' items: UIKit's `UIDynamicAnimator`, with a clock you drive.
///
/// Add behaviours (``GravityBehavior``, ``CollisionBehavior``, ``AttachmentBehavior`` …); their
/// items join the animator's world when the first behaviour holding them is added and leave when
/// the last one is removed. Then call ``step()`` (one fixed step of ``stepDuration``) or
/// ``advance(by:)`` (whole steps of elapsed time, the remainder carried over), for instance from
/// a ``DisplayLink``. After every step the animator writes each item's `center` and `transform`.
///
/// ```swift
/// let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
/// let box = BasicDynamicItem(center: CGPoint(x: 160, y: 40), size: CGSize(width: 40, height: 40))
/// animator.addBehavior(GravityBehavior(items: [box]))
/// let floor = CollisionBehavior(items: [box])
/// floor.translatesReferenceBoundsIntoBoundary = true
/// animator.addBehavior(floor)
/// animator.advance(by: 2)      // 120 steps of 1/60 s
/// ```
///
/// Units are UIKit's: points, seconds, radians, y down; mass = density × area / 10 000 pt².
///
/// The animator is not `@MainActor` and not `Sendable`: it lives in the isolation domain that
/// created it (the main actor in an app, one task on a server simulating many worlds). It is
/// deterministic: the same calls give the same results, bit for bit.
///
/// ## Running and pausing
/// The animator is *running* while any item moves. An item comes to rest when its body has been
/// slower than 5 pt/s (and turning slower than 5 pt/s at its far edge) for 0.5 s; when every item
/// rests (or is anchored) the animator pauses at the end of that step and tells its ``delegate``.
/// Anything that can move an item resumes it: a behaviour added or removed, any behaviour
/// property set to a new value, a boundary added or removed, an item updated or given velocity.
/// ``step()`` on a paused animator is cheap (resting bodies are skipped) and still calls actions
/// and frame observers, but does **not** advance ``elapsedTime``: as in UIKit, the elapsed time is
/// the sum of the steps run while running.
open class DynamicAnimator {
    // MARK: Public state

    /// The reference coordinate space's bounds, in points: UIKit's reference view bounds. `nil`
    /// for an animator made with ``init()``, which has no reference-bounds boundary.
    ///
    /// For an animator made with ``init(referenceView:)`` this is the view's bounds *now* (read
    /// on every call; unusable bounds answer the last usable ones), and `nil` once the view has
    /// been deallocated. The reference-bounds boundary follows at the next step.
    public var referenceBounds: CGRect? {
        guard madeWithReferenceView else { return referenceBoundsInUse }
        guard let view = referenceView else { return nil }
        return Self.usableReferenceBounds(view.bounds) ?? referenceBoundsInUse
    }

    /// The reference view given to ``init(referenceView:)``, held weakly as UIKit holds it; `nil`
    /// for the other initialisers, and once the view has been deallocated.
    public private(set) weak var referenceView: (any DynamicReferenceView)?

    /// Hears the animator pause and resume. Default `nil`.
    public weak var delegate: (any DynamicAnimatorDelegate)?

    /// The fixed step, in seconds. Default 1/60. Must lie in ``stepDurationRange`` (10⁻⁶ … 1 s);
    /// anything else (non-finite, zero, negative, too small to move anything or too long to
    /// simulate) is reported and the last good value kept.
    public var stepDuration: TimeInterval {
        get { storedStepDuration }
        set {
            guard newValue.isFinite, Self.stepDurationRange.contains(newValue) else {
                report(.refused("DynamicAnimator.stepDuration", isFinite: newValue.isFinite),
                       "stepDuration cannot be \(newValue) s (10⁻⁶ … 1 s); keeping \(storedStepDuration) s.")
                return
            }
            storedStepDuration = newValue
        }
    }

    /// Whether items show the pose at the display's time, between the last two fixed steps, rather
    /// than the last step's own pose. Default `true`.
    ///
    /// The steps stay fixed (``stepDuration``) whatever the display's rate, so a display link at
    /// 120 or 144 Hz, or one whose rate varies, advances the animator by less than a step in some
    /// frames. Without interpolation such a frame runs no step and the items stand still, and the
    /// next one moves them a whole step: at 120 Hz they move on every other frame only. With it,
    /// ``advance(by:)`` runs steps until the physics reaches the display's time (at most one step
    /// past it), and each item that moved in the last step shows the pose the display's time falls
    /// on, on the line from its pose before the step to its pose after it, turning the short way.
    ///
    /// It is on by default because it changes nothing at 60 Hz: there the display's time is every
    /// step's end, and the items show each step's own pose, exactly as without it. At other rates
    /// the items move evenly, with no delay: the frames show the display's own time, not one step
    /// behind as the "previous and current state" blend of most game loops does.
    ///
    /// The physics is the same either way (the same steps, in the same order); what changes is
    /// when they run. While interpolating, an `advance(by:)` may run a step that ends up to one
    /// ``stepDuration`` after the display's time, so ``elapsedTime`` and the collision delegate's
    /// callbacks can lead the frames shown by that much. `action` blocks and collision callbacks
    /// read the items at the step's own pose; frame observers, renderers and anything reading an
    /// item between frames see the shown pose. An item placed by hand (it joins, or
    /// ``updateItem(usingCurrentState:)`` reads it) shows its new pose at once, with no blend.
    /// An `advance(by:)` that runs no step but moves the shown poses is a frame of its own for the
    /// frame observers (``FrameReport/steps`` 0, ``FrameReport/presentedTime`` says where it
    /// stands). Turning it off shows every item's step pose at once.
    public var interpolatesItems: Bool {
        get { storedInterpolatesItems }
        set {
            guard newValue != storedInterpolatesItems else { return }
            storedInterpolatesItems = newValue
            if !newValue { stopPresenting() }
        }
    }

    /// The values ``stepDuration`` accepts, in seconds: 10⁻⁶ … 1.
    public static let stepDurationRange: ClosedRange<TimeInterval> = 1e-6...1

    /// The solver sub-steps per step. Default 4. Must be in 1…64; anything else is reported and
    /// the last good value kept.
    public var substeps: Int {
        get { storedSubsteps }
        set {
            guard (1...64).contains(newValue) else {
                report(.valueOutOfRange(property: "DynamicAnimator.substeps"),
                       "substeps cannot be \(newValue) (1…64); keeping \(storedSubsteps).")
                return
            }
            storedSubsteps = newValue
        }
    }

    /// The sum of the durations of the steps run while the animator was running, in seconds.
    /// Default 0; never reset. Steps on a paused animator do not count (see the type's
    /// documentation).
    public internal(set) var elapsedTime: TimeInterval = 0

    /// Whether any item is moving. `false` once every item is at rest, and for an animator with
    /// no items after its next step. See ``DynamicAnimatorDelegate``.
    public var isRunning: Bool { running }

    /// The problems noticed so far, oldest first (at most the latest 1000 are kept). Default empty.
    public internal(set) var diagnostics: [DynamicsDiagnostic] = []

    /// Called with every new diagnostic, as it is appended to ``diagnostics``. Default `nil`.
    public var diagnosticHandler: ((DynamicsDiagnostic) -> Void)?

    // MARK: Internal state

    /// The reference bounds the reference-bounds boundaries are built from (pt), validated: for
    /// ``init(referenceBounds:)`` the rectangle given, for ``init(referenceView:)`` the view's
    /// bounds as last read (see `refreshReferenceBounds()`); nil when there are none.
    var referenceBoundsInUse: CGRect? {
        didSet { sceneVersion &+= 1 }
    }
    /// Whether the animator was made with ``init(referenceView:)`` (the view may since be gone).
    private(set) var madeWithReferenceView = false

    /// The engine world: one per animator, with zero world gravity (gravity is per behaviour).
    var world: World
    /// A static body at the origin that anchors attachments and snaps.
    var groundBody: BodyID = .null

    var storedStepDuration: TimeInterval = 1.0 / 60.0
    var storedSubsteps = 4
    var running = false

    /// Top-level behaviours, in the order added (adding and removing one: amortised O(1)).
    var topLevel = IdentityList<DynamicBehavior>()
    /// `flat` as last listed; stale while `flatIsStale`.
    var flatList: [DynamicBehavior] = []
    /// The collision behaviours of `flatList`, in the same order.
    var collisionList: [CollisionBehavior] = []
    /// The behaviours of `flatList` with per-step forces (`DynamicBehavior.appliesForces`), in the
    /// same order.
    var forceList: [DynamicBehavior] = []
    /// Behaviours joined or left since `flatList` was made: it is listed again when next read.
    var flatIsStale = false
    /// Roots of the subtrees added to or removed from the tree since the last reconciliation
    /// (`treeDirty`), in the order of the changes: only their behaviours can join or leave.
    var changedRoots: [DynamicBehavior] = []
    /// A behaviour left the tree since the last reconciliation: until that has run, a behaviour
    /// of the animator may no longer hang from the tree (see `isInTree`).
    var treeHasCuts = false
    /// The tree changed inside `willMove(to:)` during the current round of reconciliation.
    var treeChangedInRound = false
    /// A reconciliation stopped at its round limit: members of the animator may have been left
    /// outside the tree for good, so `isInTree` always walks to the root.
    var treeMayHoldStrays = false

    /// Items in the world, in the order they joined.
    var records: [ItemRecord] = []
    /// The field crowd whose fields' forces the bodies do not have yet, during the force pass (see
    /// `FieldCrowd.hold()`); `storeFieldForces()` gives them.
    var crowdHoldingForces: FieldCrowd?
    /// The write-back's list of moved bodies, kept between steps for its capacity.
    var movedBodyScratch: [MovedBody] = []
    /// What the write-back's first pass read to bring records into the cache, kept so the reads
    /// are not optimised away. Never read.
    var writeBackDigest: UInt = 0
    /// Lookup only: item identity → record.
    var recordByID: [ObjectIdentifier: ItemRecord] = [:]
    /// Lookup only: group member identity → the group's record.
    var groupOfMember: [ObjectIdentifier: ItemRecord] = [:]
    /// Records by slot (their bodies and shapes are owned by `EngineOwner.item(slot:)`); nil for
    /// free slots.
    var recordSlots = SlotTable<ItemRecord>()

    /// Boundary bodies by slot (their shapes are owned by `EngineOwner.boundary(slot:)`); nil for
    /// free slots.
    var boundarySlots = SlotTable<BoundaryRecord>()

    /// Collision behaviours by filter slot 0…30.
    var collisionSlots: [CollisionBehavior?] = Array(repeating: nil, count: CollisionBits.maxBehaviors)
    /// Bit k set: collision slot k is free. Kept with `collisionSlots` by claiming, releasing and
    /// restoring (the only writers), so the lowest free slot is found in O(1).
    var freeCollisionSlots = UInt32(truncatingIfNeeded: (UInt64(1) << CollisionBits.maxBehaviors) - 1)

    /// True from the engine step until the end of the step's callbacks: structural changes
    /// requested meanwhile are queued.
    var isLocked = false
    /// True inside `step()`/`advance(by:)`, to refuse re-entrant stepping.
    var isStepping = false
    var pendingOperations: [() -> Void] = []
    var treeDirty = false
    var isReconciling = false
    /// True inside `ensureSynced()`, which must not nest.
    var isSyncing = false
    /// The world must be brought up to date with the behaviours before the next step or query.
    /// Every change that needs it may also change the picture's scene: it moves `sceneVersion`.
    var needsSync = false {
        didSet { if needsSync { sceneVersion &+= 1 } }
    }
    /// Moves whenever what `traceScene()` describes may have changed (see `TraceSceneCache`).
    var sceneVersion: UInt64 = 0
    /// The scene last described, kept until `sceneVersion` moves.
    var sceneCache = TraceSceneCache()
    /// Every body must be woken at the next synchronisation (items left, so their neighbours may
    /// have lost support).
    var wakeAllOnSync = false
    /// Items to wake at the next synchronisation (those of behaviours that joined or left).
    var itemsToWake: [any DynamicItem] = []
    /// Velocities asked for while a synchronisation was due, in the order asked for: applied at
    /// its end (see `DynamicItemBehavior.addVelocity`).
    var deferredVelocities: [DeferredVelocity] = []
    /// Whether `ensureSynced()` would synchronise now.
    var syncIsDue: Bool { needsSync && !isLocked && !isSyncing }

    /// The display's time less the physics' time, in seconds: the time not yet stepped, or while
    /// interpolating, down to minus one step (the physics ran ahead to the next step's end).
    var accumulator: TimeInterval = 0
    var storedInterpolatesItems = true
    /// The records the last step moved, while interpolating (`DynamicAnimator+Presentation`).
    var presenting: [ItemRecord] = []
    /// The step before's `presenting`, kept to finish the items that stopped moving.
    var leftPresenting: [ItemRecord] = []
    /// Counts the steps run while interpolating: a record is in `presenting` when its stamp is this.
    var presentationStamp = 0
    /// Whether the step running now notes its moves in `presenting` (see `beginPresentationStep`).
    var isNotingPresentation = false
    /// Wall-clock time spent inside the engine's step, summed over every step: `bench` compares
    /// it with the whole step to show what the UIKit layer adds. Never read by the simulation.
    package internal(set) var engineTime: Duration = .zero
    /// Wall-clock time spent in the behaviours' per-step forces (gravity, push, snap, fields),
    /// summed like ``engineTime``: `bench` shows it apart from the rest of the layer (sync,
    /// write-back, callbacks, frames), because it is physics the engine alone would not do.
    package internal(set) var forceTime: Duration = .zero

    /// The engine world under the animator, for `bench --profile` (its phase times).
    package var engineWorld: World { world }
    var frameIndex = 0
    var frameObservers: [(token: Int, observer: (FrameReport) -> Void)] = []
    var nextObserverToken = 0
    /// Lookup only: structural diagnostics already reported, so they are not repeated every sync.
    /// At most ``reportedOnceLimit`` are kept, the oldest forgotten first (in `reportedOnceOrder`):
    /// a message names its item, and an app that makes and drops named items without end must
    /// not make this set grow without end (it held 18 MB per 100 000 short-lived named items).
    var reportedOnce: Set<String> = []
    /// The messages of `reportedOnce` in the order first reported, from `reportedOnceStart` on.
    var reportedOnceOrder: [String] = []
    var reportedOnceStart = 0
    /// The most messages `reportOnce` remembers: 1 024. One forgotten is reported again the next
    /// time it happens, then remembered again.
    static let reportedOnceLimit = 1_024
    /// Touches ended by removing a boundary between steps (its body is destroyed then, so the
    /// engine's events of the next step cannot name it): delivered after the next step's *ended*
    /// callbacks, as UIKit reports a contact that ends because a boundary went away.
    var endedByRemoval: [(boundary: BoundaryRecord, item: ItemRecord)] = []

    // MARK: Creating an animator

    /// Creates an animator whose coordinate space is a reference view's bounds, given directly
    /// and fixed (UIKit's `init(referenceView:)` with a view that never changes size; see
    /// ``init(referenceView:)`` for bounds that follow a view). Collision behaviours can turn
    /// these bounds into a boundary. ``referenceView`` is `nil`.
    ///
    /// - Parameter referenceBounds: The bounds, in points. A null, infinite or non-finite
    ///   rectangle, or one reaching beyond ±10⁷ pt, is reported and the animator has no reference
    ///   bounds.
    public init(referenceBounds: CGRect) {
        world = Self.makeWorld(.stiffJoints)
        let r = referenceBounds.standardized
        if referenceBounds.isNull || referenceBounds.isInfinite
            || !(r.origin.x.isFinite && r.origin.y.isFinite && r.width.isFinite && r.height.isFinite)
            || !CGPoint(x: r.minX, y: r.minY).isUsableAnimatorValue || !CGPoint(x: r.maxX, y: r.maxY).isUsableAnimatorValue {
            report(.referenceBoundsUnusable,
                   "referenceBounds \(referenceBounds) is not a finite rectangle within ±10⁷ pt; the animator has no reference bounds.")
        } else {
            referenceBoundsInUse = r
        }
    }

    /// Creates an animator whose coordinate space is `referenceView`'s bounds: UIKit's
    /// `init(referenceView:)`, for any object with ``DynamicReferenceView/bounds`` (a
    /// ``BasicDynamicItem``, or a view class of your own).
    ///
    /// The view is held weakly (``referenceView``) and its bounds are read lazily, as UIKit reads
    /// them: UIKit's animator checks, at the start of every step, whether the reference view's
    /// bounds changed and then rebuilds every reference-bounds boundary from the new bounds, and a
    /// reference view resized through its `frame` or `bounds` wakes a paused animator (measured on
    /// UIKitCore through Mac Catalyst and read in the iOS 7.0 disassembly by the charon project,
    /// <https://github.com/kern0x1b/charon/blob/0df70b9349b477f8a8d9e9152f160a0b202e1204/packages/a/apple-backports/facts/UIKit/UIDynamicAnimator.md>,
    /// §1.5, §7.4, §9 and M3). So here:
    /// - ``referenceBounds`` answers the view's bounds at the moment you ask;
    /// - at the start of every ``step()`` (also on a paused animator) the bounds are read; when
    ///   they differ from those the boundaries were built from, every collision behaviour with
    ///   ``CollisionBehavior/translatesReferenceBoundsIntoBoundary`` rebuilds its boundary (insets
    ///   kept) and its items wake, so a view that rotates or is laid out late keeps its items
    ///   inside. UIKit's setters wake on a size change only; a clock you drive cannot hear a
    ///   setter, so any change of origin or size is taken at the next step.
    /// - Bounds that are null, infinite, non-finite or beyond ±10⁷ pt are reported (once per
    ///   value) and the last usable bounds are kept.
    /// - Once the view has been deallocated there is no reference view and so, as in UIKit, no
    ///   reference-bounds boundary: the boundaries are removed at the next step, and a collision
    ///   behaviour that wants one reports it once. (UIKit's animator goes further and stops
    ///   running; here the clock is yours, so the other behaviours go on.)
    ///
    /// - Parameter referenceView: The view whose bounds are the reference coordinate space.
    public init(referenceView: any DynamicReferenceView) {
        world = Self.makeWorld(.stiffJoints)
        self.referenceView = referenceView
        madeWithReferenceView = true
        let bounds = referenceView.bounds
        if let r = Self.usableReferenceBounds(bounds) {
            referenceBoundsInUse = r
        } else {
            reportOnce(.referenceBoundsUnusable,
                       "The reference view's bounds \(bounds) are not a finite rectangle within ±10⁷ pt; no reference bounds until they are.")
        }
    }

    /// `rect`, standardised, when it can be reference bounds (finite, not null, within ±10⁷ pt).
    static func usableReferenceBounds(_ rect: CGRect) -> CGRect? {
        let r = rect.standardized
        guard !rect.isNull, !rect.isInfinite,
              r.origin.x.isFinite, r.origin.y.isFinite, r.width.isFinite, r.height.isFinite,
              CGPoint(x: r.minX, y: r.minY).isUsableAnimatorValue, CGPoint(x: r.maxX, y: r.maxY).isUsableAnimatorValue
        else { return nil }
        return r
    }

    /// Reads the reference view's bounds, as UIKit's pre-solver step does: when they differ from
    /// the bounds in use (or the view is gone), the reference-bounds boundaries are rebuilt at
    /// the next synchronisation and their items wake. Unusable bounds keep the last usable ones.
    func refreshReferenceBounds() {
        guard madeWithReferenceView else { return }
        var current: CGRect?
        if let view = referenceView {
            let bounds = view.bounds
            guard let r = Self.usableReferenceBounds(bounds) else {
                reportOnce(.referenceBoundsUnusable,
                           "The reference view's bounds \(bounds) are not a finite rectangle within ±10⁷ pt; keeping the last usable reference bounds.")
                return
            }
            current = r
        }
        guard current != referenceBoundsInUse else { return }
        referenceBoundsInUse = current
        for collision in collisionBehaviors { collision.referenceBoundsDidChange() }
    }

    /// Creates an animator with an abstract coordinate space and no reference bounds.
    public init() {
        world = Self.makeWorld(.stiffJoints)
    }

    /// Creates an animator on a world built from `worldDef` (its gravity is forced to zero):
    /// tests use it to switch on the engine's validation walk. The public initialisers use
    /// `WorldDef.stiffJoints`: attachments are rigid rods, pins and welds as in UIKit.
    convenience init(referenceBounds: CGRect?, worldDef: WorldDef) {
        if let rect = referenceBounds { self.init(referenceBounds: rect) } else { self.init() }
        world = Self.makeWorld(worldDef)
    }

    /// An animator whose world steps on `workerCount` threads (the caller and `workerCount − 1`
    /// workers; results are identical for any count). For `bench --threads`: a public switch
    /// would be beyond UIKit's API.
    package convenience init(referenceBounds: CGRect, workerCount: Int) {
        var def = WorldDef.stiffJoints
        def.workerCount = workerCount
        self.init(referenceBounds: referenceBounds, worldDef: def)
    }

    /// A world for an animator: `def` with zero world gravity (gravity is per behaviour).
    private static func makeWorld(_ def: WorldDef) -> World {
        var d = def
        d.gravity = .zero
        d.lengthUnitsPerMeter = Float(UIKitUnits.pointsPerMetre)
        if DebugSwitches.validatesWorlds { d.validate = true }
        let world = World(def: d)
        world.recordsMovedBodies = true   // the write-back reads them after every step
        return world
    }

    // MARK: Behaviours

    /// The top-level behaviours, in the order added.
    public var behaviors: [DynamicBehavior] { topLevel.elements }

    /// Adds `behavior` and its children: their items join the world. Called during a step's
    /// callbacks, it takes effect at the end of the step. A behaviour already in this or another
    /// animator, or with a parent, is reported and ignored. Resumes a paused animator.
    ///
    /// - Parameter behavior: The behaviour to add.
    public func addBehavior(_ behavior: DynamicBehavior) {
        performOrQueue { [self] in
            if behavior.dynamicAnimator === self {
                report(.behaviorAlreadyPlaced(behavior: ObjectIdentifier(behavior)),
                       "addBehavior: the \(behaviorLabel(behavior)) is already in this animator; ignored.")
                return
            }
            if behavior.dynamicAnimator != nil {
                report(.behaviorAlreadyPlaced(behavior: ObjectIdentifier(behavior)),
                       "addBehavior: the \(behaviorLabel(behavior)) belongs to another animator; ignored.")
                return
            }
            if behavior.parent != nil {
                report(.behaviorAlreadyPlaced(behavior: ObjectIdentifier(behavior)),
                       "addBehavior: the \(behaviorLabel(behavior)) is the child of another behaviour; ignored.")
                return
            }
            guard topLevel.append(behavior) else {
                report(.behaviorAlreadyPlaced(behavior: ObjectIdentifier(behavior)),
                       "addBehavior: the \(behaviorLabel(behavior)) is already in this animator; ignored.")
                return
            }
            behaviorTreeDidChange(at: behavior)
            tickle()
        }
    }

    /// Removes the top-level `behavior` and its children: items no other behaviour holds leave the
    /// world. Called during a step's callbacks, it takes effect at the end of the step. A
    /// behaviour that is not top-level in this animator is reported and ignored (remove a child
    /// from its parent instead). Resumes a paused animator.
    ///
    /// - Parameter behavior: The behaviour to remove.
    public func removeBehavior(_ behavior: DynamicBehavior) {
        performOrQueue { [self] in
            guard topLevel.remove(behavior) else {
                report(.nothingToRemove,
                       "removeBehavior: the \(behaviorLabel(behavior)) is not a top-level behaviour of this animator; nothing to remove (UIKit ignores this too).",
                       severity: .note)
                return
            }
            behaviorTreeDidChange(at: behavior, removal: true)
            tickle()
        }
    }

    /// Removes every behaviour; every item leaves the world. Called during a step's callbacks, it
    /// takes effect at the end of the step.
    public func removeAllBehaviors() {
        performOrQueue { [self] in
            guard !topLevel.isEmpty else { return }
            let removed = topLevel.elements
            topLevel.removeAll()
            changedRoots += removed
            behaviorTreeDidChange(at: nil, removal: true)
            tickle()
        }
    }

    // MARK: Items

    /// The items whose collision shapes' bounding boxes intersect `rect` (points), in the order
    /// they joined. A group counts as one item, present when one of its members' boxes
    /// intersects `rect`. Every item in the animator counts, in a collision behaviour or not; the
    /// boxes are where the last step left the items (see ``items(at:)``). The search uses the
    /// engine's query grid, so it costs about the same however many items there are. A
    /// non-finite rectangle is reported and gives `[]`.
    ///
    /// - Parameter rect: The rectangle, in the animator's coordinate space.
    public func items(in rect: CGRect) -> [any DynamicItem] {
        let r = rect.standardized
        guard !rect.isNull, r.origin.x.isFinite, r.origin.y.isFinite, r.width.isFinite, r.height.isFinite else {
            report(.nonFiniteValue(property: "DynamicAnimator.items(in:)"),
                   "items(in:) needs a finite rectangle, not \(rect); returning no items.")
            return []
        }
        ensureSynced()
        return itemsIntersecting(r)
    }

    /// Re-reads `item`'s `center`, `transform` (rotation) and `bounds` (size), keeping its
    /// linear and angular velocity: call it after you move, rotate or resize an item yourself.
    /// For a group, re-reads the group's center and rotation and its members' sizes (the members
    /// keep their offsets); a member stands for its group. Non-finite values are reported and the
    /// body keeps its last good pose. An item not in the animator is reported and ignored.
    /// Resumes a paused animator.
    ///
    /// - Parameter item: The item to re-read.
    public func updateItem(usingCurrentState item: any DynamicItem) {
        ensureSynced()
        let id = ObjectIdentifier(item)
        guard let record = recordByID[id] ?? groupOfMember[id] else {
            report(.itemNotInAnimator(item: id),
                   "updateItem(usingCurrentState:): the \(itemLabel(item)) is not in this animator; ignored.")
            return
        }
        reread(record)
        world.wake(record.body)
        tickle()
    }

    // MARK: Diagnostics

    /// Appends a diagnostic of `kind` and calls the handler.
    func report(_ kind: DynamicsDiagnostic.Kind, _ message: String, severity: DynamicsDiagnostic.Severity = .warning) {
        report(DynamicsDiagnostic(kind: kind, message: message, severity: severity))
    }

    /// Appends `diagnostic` and calls the handler.
    func report(_ diagnostic: DynamicsDiagnostic) {
        diagnostics.append(diagnostic)
        if diagnostics.count > 1000 { diagnostics.removeFirst(diagnostics.count - 1000) }
        // the handler may read or change the world: the bodies have every force first
        storeFieldForces()
        diagnosticHandler?(diagnostic)
    }

    /// Reports `message` only the first time it is seen (structural problems found on every sync).
    func reportOnce(_ kind: DynamicsDiagnostic.Kind, _ message: String, severity: DynamicsDiagnostic.Severity = .warning) {
        guard rememberReported(message) else { return }
        report(kind, message, severity: severity)
    }

    /// Adds `message` to the messages reported once; false when it is there already.
    func rememberReported(_ message: String) -> Bool {
        guard reportedOnce.insert(message).inserted else { return false }
        reportedOnceOrder.append(message)
        if reportedOnce.count > Self.reportedOnceLimit {
            reportedOnce.remove(reportedOnceOrder[reportedOnceStart])
            reportedOnceStart += 1
            // Drop the forgotten half of the queue now and then: amortised O(1) a message.
            if reportedOnceStart >= Self.reportedOnceLimit {
                reportedOnceOrder.removeFirst(reportedOnceStart)
                reportedOnceStart = 0
            }
        }
        return true
    }

    /// Reports the engine's validation findings after a step (the walk runs only under
    /// `DYNAMICS_VALIDATE=1`, see ``DebugSwitches``): once per animator as a diagnostic, and on
    /// standard error for the harness to stop on.
    func reportValidationFailure() {
        let message = "\(DebugSwitches.validationFailurePrefix) after engine step \(world.stepCount): "
            + world.validationErrors.prefix(5).joined(separator: "; ")
        guard rememberReported(DebugSwitches.validationFailurePrefix) else { return }
        report(.engineValidationFailed, message)
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    // MARK: Queueing and waking

    /// Runs `operation` now, or at the end of the step when called from a step's callbacks.
    func performOrQueue(_ operation: @escaping () -> Void) {
        if isLocked { pendingOperations.append(operation) } else { operation() }
    }

    /// Resumes a paused animator (telling the delegate). Called by every change that can move an item.
    func tickle() {
        guard !running else { return }
        running = true
        delegate?.dynamicAnimatorWillResume(self)
    }

    /// A behaviour property changed: wake its items, resume, and refresh the world if asked.
    func behaviorDidChange(_ behavior: DynamicBehavior, needsSync sync: Bool) {
        if sync { needsSync = true }
        for item in behavior.heldItems {
            if let record = recordByID[ObjectIdentifier(item)] { world.wake(record.body) }
        }
        tickle()
    }

    /// Items joined or left a behaviour of this animator.
    func behaviorItemsDidChange(_ items: [any DynamicItem]) {
        needsSync = true
        itemsToWake += items
        wake(items)
    }

    /// Wakes the bodies of `items` (those in the world) and resumes.
    func wake(_ items: [any DynamicItem]) {
        for item in items {
            if let record = recordByID[ObjectIdentifier(item)] { world.wake(record.body) }
        }
        tickle()
    }

    /// The static body at the origin that anchors attachments and snaps; created on first use.
    var anchorBody: BodyID {
        if !world.isValid(groundBody) {
            var def = BodyDef()
            def.type = .static
            def.userData = EngineOwner.ground.userData
            groundBody = world.createBody(def)
        }
        return groundBody
    }

    /// The record of `item`, if it is in the world (groups: the group's record, not members').
    func record(for item: any DynamicItem) -> ItemRecord? {
        recordByID[ObjectIdentifier(item)]
    }
}
