import DynamicsEngine
import Foundation

/// A physics field — gravity toward a point, a vortex, drag, springs, charges and magnets, smooth
/// noise, or your own law — acting on its items inside a region: UIKit's `UIFieldBehavior`.
///
/// Make a field with one of the factories (there is no public initializer, as in UIKit), add the
/// items it should act on with ``addItem(_:)``, and add it to an animator. A field acts **only on
/// its own items**; several fields on one item add up.
///
/// ```swift
/// let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
/// let ball = BasicDynamicItem(center: CGPoint(x: 300, y: 200), size: CGSize(width: 20, height: 20))
/// let sun = FieldBehavior.radialGravityField(position: CGPoint(x: 200, y: 200))
/// sun.strength = 10                    // 1000 pt/s² at 100 pt …
///                                      // … inverse-square (falloff 2, its default): 250 pt/s² at 200 pt
/// sun.region = Region(radius: 180)     // no pull beyond 180 pt
/// sun.addItem(ball)
/// animator.addBehavior(sun)
/// ```
///
/// ## UIKit's units
///
/// The laws and their units are those of PhysicsKit, the engine under UIKit's (and SpriteKit's)
/// fields, which works in metres at 100 pt per metre: for the fields that accelerate every item
/// alike (linear and radial gravity, turbulence), strength 1 is **1 m/s² = 100 pt/s²** — a tenth
/// of a ``GravityBehavior`` of magnitude 1; for the others it is a force of **1 N = 100 mass·pt/s²**,
/// so heavier items move less (m = density × area / 10 000 pt², in kilograms as in UIKit). The
/// laws were measured and read in UIKitCore and PhysicsKit by the charon project
/// (kern0x1b/charon, `packages/a/apple-backports/facts/UIKit/UIFieldBehavior.md`, §10.2, §10.3,
/// §M7); the DocC article <doc:Fields> lists them with the public apps whose numbers they were
/// checked against. Each factory states its law.
///
/// ## The common law
///
/// Every built-in field computes an acceleration **a** (pt/s²) for each awake, movable item and
/// applies the force m·**a** at its center of mass for the whole step. With **p** the item's
/// center minus ``position`` (pt), d = |**p**|, **p̂** = **p**/d, **v** the item's velocity (pt/s)
/// and q its charge (from ``DynamicItemBehavior/charge``):
///
/// - **Region.** No force when **p** is outside ``region`` (the region is centred on ``position``).
/// - **Strength.** Every built-in law but the velocity field's scales with ``strength`` (default
///   1); a negative strength reverses it. The custom field's block gets it to use as it likes.
/// - **Falloff.** Every built-in law but the velocity field's is multiplied by fall(d) =
///   (max(d, ``minimumRadius``) / 100 pt)^(−``falloff``) — PhysicsKit's r^(−falloff) with r in
///   metres, so the factor is 1 at **100 pt** whatever the falloff. Falloff 0 is uniform; 2 is
///   inverse-square (a quarter at twice the distance); a negative falloff grows with distance.
///   Each kind starts with UIKit's own default (measured by charon, §10.2): **2** for radial
///   gravity, **−1** for the spring (a pull growing with distance: Hooke's law), **1** for
///   electric and magnetic fields, **0** for the others. Distances below ``minimumRadius`` (and
///   below 0.001 pt) count as that radius.
/// - **Core.** The central fields — radial gravity, electric, spring, vortex — point along ±**p̂** or
///   across it, which flips at the position, and with a falloff they grow without bound there. A
///   discrete step that carries an item through such a center samples the force on one side only
///   and flings the item away with energy it never had (UIKit does: see <doc:Fields>). So inside
///   a small core, the smallest radius at which the step resolves the field (ω·Δt ≤ ½; 15 pt for
///   an inverse-square radial field of strength 1 at 60 Hz, 0.1 pt with falloff 0), the field
///   ramps linearly to zero at the center — the field of a uniform ball, the solid core of a
///   Rankine vortex. Outside it the field is UIKit's.
/// - **Sampling.** Position-dependent laws are evaluated at the item's center advanced by
///   γ·Δt·**v** with γ = (N − 1)/(2N), Δt the animator's step and N its ``DynamicAnimator/substeps``
///   (γ = 3/8 by default: 0.625 pt ahead for an item moving at 100 pt/s at 60 Hz). This makes the
///   engine's step preserve phase-space area, so an undamped spring keeps its amplitude. Radial
///   gravity and electric fields are conservative: their acceleration is then corrected (along the
///   direction that changes the step's energy fastest) so that the step keeps the item's energy in
///   the field exactly — an orbit keeps its size and an item falling through a sun comes back to
///   the height it fell from. The region test and the custom block use the item's actual center.
/// - **Containment.** A non-finite acceleration, or one above 10¹² pt/s², is ignored for that item
///   for that step and reported once; other items are unaffected.
///
/// A still field does not wake a resting item (as with ``GravityBehavior``): items rest where its
/// force is balanced (on the floor), while a group of items that rests on nothing fixed is kept
/// awake as long as its forces do not balance. A noise field whose pattern changes
/// (``animationSpeed`` and ``strength`` not 0) and a velocity field with a ``direction`` keep
/// their items in their ``region`` awake, so the animator does not pause while they act (see
/// "Fields and rest" in <doc:Fields>). Changing any property of the field, to a new valid value,
/// wakes its items and resumes a paused animator. Invalid values
/// (non-finite, or negative where that makes no sense) are reported as a ``DynamicsDiagnostic``
/// and the last good value is kept.
///
/// UIKit limits an animator to 32 fields; this one has no limit.
open class FieldBehavior: DynamicBehavior {
    /// Which law a field follows; fixed at creation by its factory.
    public enum Kind: Sendable, Hashable {
        /// ``FieldBehavior/dragField()``.
        case drag
        /// ``FieldBehavior/vortexField()``.
        case vortex
        /// ``FieldBehavior/radialGravityField(position:)``.
        case radialGravity
        /// ``FieldBehavior/linearGravityField(direction:)``.
        case linearGravity
        /// ``FieldBehavior/velocityField(direction:)``.
        case velocity
        /// ``FieldBehavior/noiseField(smoothness:animationSpeed:)``.
        case noise
        /// ``FieldBehavior/turbulenceField(smoothness:animationSpeed:)``.
        case turbulence
        /// ``FieldBehavior/springField()``.
        case spring
        /// ``FieldBehavior/electricField()``.
        case electric
        /// ``FieldBehavior/magneticField()``.
        case magnetic
        /// ``FieldBehavior/field(evaluationBlock:)``.
        case custom
    }

    /// The signature of a custom field's law: (field, position, velocity, mass, charge, time)
    /// → force. UIKit names the last argument `deltaTime`.
    ///
    /// - position: the item's center in the animator's coordinate space (pt), not relative to the
    ///   field;
    /// - velocity: the item's velocity (pt/s);
    /// - mass: density × area / 10 000 pt²;
    /// - charge: from ``DynamicItemBehavior/charge`` (0 by default);
    /// - time: the animator's clock at the end of this step (s): its
    ///   ``DynamicAnimator/elapsedTime`` once the step is done — 1/60 s on the first step at 60 Hz,
    ///   then 2/60 s, and so on. **Not the step's duration**, although UIKit's header calls it
    ///   "deltaTime: The current time step": UIKit passes its physics world's clock after the
    ///   sub-step (measured by charon: kern0x1b/charon,
    ///   `packages/a/apple-backports/facts/UIKit/UIFieldBehavior.md`, §10.2, "the world time after
    ///   the sub-step"), and code written for iOS relies on it — the "delayed drag field" of Matt
    ///   Neuburg's *Programming iOS* (mattneub/Programming-iOS-Book-Examples) returns a drag only
    ///   once this argument passes 0.95 s. The step itself is
    ///   ``DynamicAnimator/stepDuration``;
    /// - returns: the force, in mass·pt/s² (a ``PushBehavior`` of magnitude 1 is 100 of these; so
    ///   is UIKit's 1 N: a block written for iOS, which gets velocities in m/s and returns newtons,
    ///   gives the same motion here when its law is linear in the velocity).
    public typealias EvaluationBlock = (FieldBehavior, CGPoint, CGVector, CGFloat, CGFloat, TimeInterval) -> CGVector

    /// The law this field follows.
    public let kind: Kind

    /// The custom law; nil for the built-in kinds.
    let evaluationBlock: EvaluationBlock?

    var list = ItemList([])
    /// The records of ``items`` that are in the animator's world, in item order, with their body
    /// ids and charges alongside: rebuilt whenever the animator synchronises (which it does before
    /// a step after any change to items, item properties or behaviours), so a step does no
    /// dictionary look-up, retains nothing and makes no existential call per item.
    var records: [ItemRecord] = []
    var bodies: [BodyID] = []
    var charges: [CGFloat] = []
    /// The items' motion, read once per step and shared with the animator's other fields on the
    /// same bodies (see ``FieldCrowd``); chosen at synchronisation.
    var crowd: FieldCrowd?
    /// The force loop's buffer, kept between steps for its capacity.
    var forceScratch: [Vec2] = []
    /// The keep-awake pass's flags (which items are in the region), kept for their capacity.
    var regionScratch: [Bool] = []
    /// Whether the field evaluates its law in SIMD lanes on the shared read of its items' motion
    /// (true, always, outside tests); false: item by item on a read of its own, as before lanes —
    /// the reference the tests compare the lanes with.
    var evaluatesInLanes = true

    var storedPosition = CGPoint.zero
    var storedRegion = Region.infinite
    /// Whether ``region`` is ``Region/infinite``, so the per-item region test can be skipped.
    var regionIsInfinite = true
    var storedStrength: CGFloat = 1
    var storedFalloff: CGFloat
    var storedMinimumRadius: CGFloat = 0
    var storedDirection = CGVector.zero
    var storedSmoothness: CGFloat = 0
    var storedAnimationSpeed: CGFloat = 0
    var storedSeed: UInt64 = 0
    /// 1 / the noise feature size (1/pt), from ``smoothness``.
    var noiseFrequency: Double = FieldBehavior.noiseFrequency(smoothness: 0)
    /// The seed as the noise hash uses it.
    var noiseSeed: UInt32 = SimplexNoise.foldSeed(0)
    /// The noise's time coordinate, in noise features: advances by ``animationSpeed`` × Δt per step.
    var noiseTime: Double = 0

    /// The law a factory chose, handed to ``init(_:)``. Only the factories make one, so a field
    /// always has a law; a subclass passes it through.
    public struct Law {
        let kind: Kind
        let evaluationBlock: EvaluationBlock?

        init(_ kind: Kind, evaluationBlock: EvaluationBlock? = nil) {
            self.kind = kind
            self.evaluationBlock = evaluationBlock
        }
    }

    /// Creates a field following `law`. The factories call it on the class they are called on,
    /// so `MyField.springField()` makes a `MyField`; a subclass that declares initialisers of its
    /// own implements this one as `required init(_ law: Law) { super.init(law) }`.
    ///
    /// - Parameter law: The law a factory chose.
    public required init(_ law: Law) {
        self.kind = law.kind
        self.evaluationBlock = law.evaluationBlock
        self.storedFalloff = Self.defaultFalloff(of: law.kind)
        super.init()
    }

    /// UIKit's default ``falloff`` for a kind, as measured by charon (kern0x1b/charon,
    /// `packages/a/apple-backports/facts/UIKit/UIFieldBehavior.md`, §10.1–10.2): radial gravity 2
    /// (inverse-square), spring −1 (Hooke: the pull grows with the distance), electric and
    /// magnetic 1, every other kind 0 (uniform). Apple's documentation gives 0 for all; ported
    /// apps rely on the measured ones (a radial field of strength 10 pulls 1000 pt/s² at 100 pt
    /// and 250 at 200 pt, as on iOS).
    ///
    /// - Parameter kind: The field's kind.
    /// - Returns: The falloff a new field of that kind starts with.
    public static func defaultFalloff(of kind: Kind) -> CGFloat {
        switch kind {
        case .radialGravity: return 2
        case .spring: return -1
        case .electric, .magnetic: return 1
        case .drag, .vortex, .linearGravity, .velocity, .noise, .turbulence, .custom: return 0
        }
    }

    // MARK: Properties

    /// The field's origin, in the animator's coordinate space (pt). Default `.zero`. The
    /// ``region`` and every distance-dependent law are measured from it. A non-finite point, or
    /// one beyond ±10⁷ pt, is reported and ignored.
    public var position: CGPoint {
        get { storedPosition }
        set {
            guard validate(newValue, "position") else { return }
            update(\.storedPosition, to: newValue)
        }
    }

    /// Where the field acts, in points relative to ``position``: no force on items whose center is
    /// outside it. Default ``Region/infinite``.
    public var region: Region {
        get { storedRegion }
        set { update(\.storedRegion, to: newValue) { regionIsInfinite = newValue == .infinite } }
    }

    /// The field's strength, unitless: every built-in law but the velocity field's is proportional
    /// to it; negative reverses the field. Default 1. As in UIKit, 1 is 1 m/s² (100 pt/s²) for
    /// the fields that accelerate every item alike and 1 N (100 mass·pt/s²) for the others — each
    /// factory says which. UIKit ignores it for velocity fields, and so does this one. Not applied
    /// to a custom field's block (read it there if you want it). A non-finite value is reported
    /// and ignored.
    public var strength: CGFloat {
        get { storedStrength }
        set {
            guard validate(newValue, "strength", allowsNegative: true) else { return }
            update(\.storedStrength, to: newValue)
        }
    }

    /// How the force changes with the distance d from ``position``: it is multiplied by
    /// (max(d, ``minimumRadius``) / 100 pt)^(−falloff) — UIKit's r^(−falloff) with r in metres of
    /// 100 pt. 0 is uniform; 2 is inverse-square (a quarter of the force at twice the distance);
    /// negative values grow with distance. Default: UIKit's for the kind (see
    /// ``defaultFalloff(of:)``) — 2 for radial gravity, −1 for the spring, 1 for electric and
    /// magnetic fields, 0 for the others. Not applied to a custom field or a velocity field. A
    /// non-finite value is reported and ignored.
    public var falloff: CGFloat {
        get { storedFalloff }
        set {
            guard validate(newValue, "falloff", allowsNegative: true) else { return }
            update(\.storedFalloff, to: newValue)
        }
    }

    /// The distance (pt) below which the falloff stops growing: closer items feel the strength they
    /// would feel at this distance (UIKit's and SpriteKit's meaning). Default 0 (distances are still
    /// floored at 0.001 pt). Radial, electric and vortex fields also fade to zero inside a small core
    /// at their center (see "Core" on ``FieldBehavior``). A negative or non-finite value is reported
    /// and ignored.
    public var minimumRadius: CGFloat {
        get { storedMinimumRadius }
        set {
            guard validate(newValue, "minimumRadius") else { return }
            update(\.storedMinimumRadius, to: newValue)
        }
    }

    /// The field's direction vector, in UIKit's metre units: for linear-gravity fields the
    /// acceleration at strength 1 (1 = 100 pt/s²), for velocity fields the velocity they set
    /// (1 = 100 pt/s), for drag fields the velocity of the medium the drag is relative to
    /// (1 = 100 pt/s); ignored by the other kinds. Default `.zero`. A non-finite vector is reported
    /// and ignored.
    public var direction: CGVector {
        get { storedDirection }
        set {
            guard validate(newValue, "direction") else { return }
            update(\.storedDirection, to: newValue)
        }
    }

    /// How smooth a noise or turbulence field is in space, 0 … 1: the noise's lattice cell is
    /// 100 pt / (1.25 / (smoothness + 1/12) − 1), UIKit's frequency (0 → 7.1 pt, the noisiest;
    /// 0.5 → 87.5 pt; 1 → 650 pt, the smoothest). Ignored by the other kinds. Default 0. A value
    /// outside 0 … 1 is clamped into it and reported (UIKit takes larger values, whose frequency
    /// turns through 0 near 1.17); a non-finite one is reported and ignored.
    public var smoothness: CGFloat {
        get { storedSmoothness }
        set {
            guard validate(newValue, "smoothness", allowsNegative: true) else { return }
            var value = newValue
            if !(0...1).contains(value) {
                value = min(max(value, 0), 1)
                report(.valueOutOfRange(property: "FieldBehavior.smoothness"),
                       "FieldBehavior.smoothness must be in 0…1, not \(newValue); using \(value).")
            }
            update(\.storedSmoothness, to: value) { noiseFrequency = Self.noiseFrequency(smoothness: value) }
        }
    }

    /// How fast a noise or turbulence field changes in time, in Hz: the noise time τ advances by
    /// animationSpeed × Δt per step, and, as in UIKit, the pattern drifts by τ metres (100 pt per
    /// unit) along (−1, −1), moves τ metres along its third axis and turns its gradients by τ
    /// radians. 0 freezes the pattern; a negative speed runs it backward. Ignored by the other
    /// kinds. Default 0. A non-finite value, or one above 10⁶ Hz in size, is reported and ignored.
    public var animationSpeed: CGFloat {
        get { storedAnimationSpeed }
        set {
            guard validate(newValue, "animationSpeed", allowsNegative: true, maximum: 1_000_000) else { return }
            update(\.storedAnimationSpeed, to: newValue)
        }
    }

    /// Chooses the pattern of a noise or turbulence field (beyond UIKit). Fields with equal seeds
    /// and smoothness have the same pattern; the pattern depends on nothing else (not on the run,
    /// the process or the platform). Default 0.
    public var seed: UInt64 {
        get { storedSeed }
        set { update(\.storedSeed, to: newValue) { noiseSeed = SimplexNoise.foldSeed(newValue) } }
    }

    // MARK: Items

    /// The items the field acts on, in the order added. Default empty.
    public var items: [any DynamicItem] { list.items }

    /// Adds `item` (ignored if already present). The item joins the animator's world if needed.
    ///
    /// - Parameter item: The item to act on.
    public func addItem(_ item: any DynamicItem) {
        if list.add(item) { itemsDidChange([item]) }
    }

    /// Removes `item`; an item the behaviour does not have changes nothing (a note says so, as UIKit ignores it).
    ///
    /// - Parameter item: The item to stop acting on.
    public func removeItem(_ item: any DynamicItem) {
        if list.remove(item) { itemsDidChange([item]) } else { reportNotHeld(item) }
    }

    // MARK: Animator hooks

    override var heldItems: [any DynamicItem] { list.items }

    override func syncWorld(_ animator: DynamicAnimator) {
        records = list.items.compactMap { animator.record(for: $0) }
        bodies = records.map(\.body)
        charges = records.map { animator.charge(of: $0) }
        if evaluationBlock == nil {
            let others = animator.flat.compactMap { $0 === self ? nil : $0 as? FieldBehavior }
            crowd = FieldCrowd.shared(for: bodies, among: others)
        } else {
            crowd = nil
        }
        // The crowd's own array: equal, and then `bodies == crowd.bodies` is an identity check.
        if let crowd { bodies = crowd.bodies }
    }

    override func detach(from animator: DynamicAnimator) {
        records = []
        bodies = []
        charges = []
        crowd = nil
    }

    override var appliesForces: Bool { true }

    override func applyForces(in animator: DynamicAnimator, dt: TimeInterval) {
        applyFieldForces(in: animator, dt: dt)
    }

    override var snapshotSignature: String { "kind \(kind)" }

    override func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {
        writer.add(storedPosition)
        storedRegion.save(to: &writer)
        writer.add(storedStrength)
        writer.add(storedFalloff)
        writer.add(storedMinimumRadius)
        writer.add(storedDirection)
        writer.add(storedSmoothness)
        writer.add(storedAnimationSpeed)
        writer.add(bits: storedSeed)
        writer.add(noiseTime)
    }

    override func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        let position = try reader.point()
        let region = try Region.restore(from: &reader)
        let strength = try reader.finite(), falloff = try reader.finite()
        let minimumRadius = try reader.nonNegative()
        let direction = try reader.vector()
        let smoothness = try reader.finite()
        guard (0...1).contains(smoothness) else { throw reader.corrupt("smoothness \(smoothness) is not in 0…1") }
        let speed = try reader.finite()
        let seed = try reader.bits()
        let time = try reader.finite()
        return { [self] in
            storedPosition = position
            storedRegion = region
            regionIsInfinite = region == .infinite
            storedStrength = strength
            storedFalloff = falloff
            storedMinimumRadius = minimumRadius
            storedDirection = direction
            storedSmoothness = smoothness
            noiseFrequency = Self.noiseFrequency(smoothness: smoothness)
            storedAnimationSpeed = speed
            storedSeed = seed
            noiseSeed = SimplexNoise.foldSeed(seed)
            noiseTime = time
            // The cached records belong to the animator's old records.
            if let animator = dynamicAnimator { syncWorld(animator) }
        }
    }

    // MARK: Helpers

    /// The noise's lattice frequency (per pt) at `smoothness` (0…1): PhysicsKit's
    /// 1.25 / (smoothness + 1/12) − 1 per metre (charon §M7), so a lattice cell is 7.1 pt at
    /// smoothness 0, 87.5 pt at 0.5 and 650 pt at 1.
    static func noiseFrequency(smoothness: CGFloat) -> Double {
        (1.25 / (Double(smoothness) + 1.0 / 12) - 1) / FieldLaw.metre
    }

    /// The factories' check of a factory argument: non-finite → reported (when the field joins an
    /// animator) and replaced by `fallback`.
    private func sanitized(_ value: CGFloat, _ name: String, fallback: CGFloat) -> CGFloat {
        guard value.isFinite else {
            report(.nonFiniteValue(property: "FieldBehavior.\(name)"),
                   "FieldBehavior.\(name) cannot be \(value); using \(fallback).")
            return fallback
        }
        return value
    }
}

// MARK: - Factories

extension FieldBehavior {
    /// A drag field: slows items down, like a thick fluid — harder the faster they go.
    ///
    /// Law (UIKit's, charon §10.2): a force against the item's velocity relative to the medium,
    /// **u** = **v** − 100 pt/s·``direction``, proportional to the square of its speed: **F** =
    /// −``strength`` · fall(d) · |**u**|·**u** / (100 pt/s) mass·pt/s², i.e. −S·fall·|**u**|·**u**
    /// newtons with **u** in m/s. Heavier items are slowed less: the speed of a mass-m item decays
    /// as u(t) = u₀ / (1 + c·u₀·t), c = S·fall / (100 pt·m) — a 100 × 100 pt item (mass 1) at
    /// strength 1 goes from 100 to 50 pt/s in 1 s and from 1000 to 500 pt/s in 0.1 s. Applied as
    /// that exact solution over each step, so no strength makes it overshoot or reverse the motion;
    /// a negative strength speeds items up. (Apple's documentation says the force is proportional
    /// to the velocity; UIKit's is to its square, which the measured values show: 1 m/s → 0.991667
    /// → 0.983472 m/s over two 1/120 s sub-steps, not 0.983403.)
    ///
    /// - Returns: A drag field of strength 1, at the origin, acting everywhere.
    public class func dragField() -> Self {
        self.init(Law(.drag))
    }

    /// A vortex field: spins items around ``position``.
    ///
    /// Law (UIKit's, charon §10.2): a force across the line to the center, **F** = 100 ·
    /// ``strength`` · fall(d) / m · (−p̂y, p̂x) mass·pt/s² — PhysicsKit divides it by the mass, and
    /// the step divides by the mass again, so the acceleration is **a** = 100 pt/s² · strength ·
    /// fall(d) / m² · (−p̂y, p̂x): 100 pt/s² on a mass-1 item at strength 1, 4 × as much on a
    /// half-mass item (apps that spin small, light views use strengths of a few thousandths).
    /// (−p̂y, p̂x) turns **clockwise on a y-down screen** for a positive strength — UIKit
    /// uses PhysicsKit's formula, counter-clockwise in SpriteKit's y-up space, unchanged — and
    /// counter-clockwise for a negative one. Apple's documentation says "counter-clockwise" and
    /// "proportional to the item's mass"; the measurements (an item at (3, 4) m got (−80, 60)
    /// pt/s², and (−8.9, 6.7) at mass 3) show the above. Inside a small core at the center the spin
    /// fades to a solid rotation (see "Core" on ``FieldBehavior``).
    ///
    /// - Returns: A vortex field of strength 1, at the origin, acting everywhere.
    public class func vortexField() -> Self {
        self.init(Law(.vortex))
    }

    /// A radial gravity field: pulls items toward `position`, whatever their mass.
    ///
    /// Law (UIKit's, charon §10.2): **a** = −100 pt/s² · ``strength`` · fall(d) · **p̂** — 1 m/s²
    /// toward ``position`` for a positive strength (the force m·**a**, so heavier items fall
    /// alike), away for a negative one. Its ``falloff`` starts at 2, UIKit's default for this kind,
    /// so it is Newtonian inverse-square gravity: strength 10 gives 1000 pt/s² at 100 pt and 250 at
    /// 200 pt (set the falloff to 0 for a pull of the same strength everywhere). Strength 1.5, falloff 4 and
    /// minimum radius 50, as orbit demos use, give 2400 pt/s² out to 50 pt and 150 at 100 pt. Inside a small core at the center the pull fades to zero (see "Core"
    /// on ``FieldBehavior``), and the step keeps an item's energy in the field, so an item falling
    /// through the center climbs back exactly to the height it fell from — where UIKit, whose pull
    /// grows without bound there, flings it away.
    ///
    /// - Parameter position: The attracting point, in the animator's coordinate space (pt). A
    ///   non-finite point, or one beyond ±10⁷ pt, is reported and the origin used.
    /// - Returns: A radial gravity field of strength 1 and falloff 2 at `position`, acting everywhere.
    public class func radialGravityField(position: CGPoint) -> Self {
        let field = self.init(Law(.radialGravity))
        if position.isUsableAnimatorValue {
            field.storedPosition = position
        } else {
            field.report(.refused("FieldBehavior.position", position),
                         "FieldBehavior.position cannot be (\(position.x), \(position.y)); using (0, 0).")
        }
        return field
    }

    /// A linear gravity field: a uniform acceleration, whatever the mass — gravity that can be
    /// confined to a region and given a falloff.
    ///
    /// Law (UIKit's, charon §10.2): **a** = 100 pt/s² · ``strength`` · fall(d) · ``direction`` —
    /// direction in m/s² (a 100 × 100 pt item under direction (3, 4) gets (300, 400) pt/s²,
    /// whatever its mass). So direction (0, 1) at strength 1 is a tenth of a ``GravityBehavior`` of
    /// magnitude 1: 100 pt/s² down the screen, 50 pt of fall in the first second. The direction's
    /// length counts.
    ///
    /// - Parameter direction: The acceleration in m/s² (units of 100 pt/s², y down). A non-finite
    ///   vector is reported and `.zero` used.
    /// - Returns: A linear gravity field of strength 1, acting everywhere.
    public class func linearGravityField(direction: CGVector) -> Self {
        let field = self.init(Law(.linearGravity))
        field.storedDirection = field.sanitizedVector(direction)
        return field
    }

    /// A velocity field: gives items a set velocity, like a current or a conveyor.
    ///
    /// Law (UIKit's, charon §10.3): each step an item inside the ``region`` is brought to the
    /// velocity **u** = 100 pt/s · ``direction`` (direction in m/s): the acceleration (**u** −
    /// **v**)/Δt, so with no other force it moves at exactly **u** from the next step on.
    /// ``strength``, ``falloff`` and ``minimumRadius`` do not count (UIKit ignores them). UIKit
    /// also switches the item's other forces off while it sets the velocity; here they still act
    /// for the step, so under a gravity g the item settles at **u** + g·Δt (17 pt/s beyond the
    /// target under 1000 pt/s² at 60 Hz). Direction (0, −1.6) is a jet of 160 pt/s up.
    ///
    /// - Parameter direction: The velocity in m/s (units of 100 pt/s). A non-finite vector is
    ///   reported and `.zero` used.
    /// - Returns: A velocity field of strength 1, acting everywhere.
    public class func velocityField(direction: CGVector) -> Self {
        let field = self.init(Law(.velocity))
        field.storedDirection = field.sanitizedVector(direction)
        return field
    }

    /// A noise field: smooth, random-looking pushes that vary with position and time.
    ///
    /// Law (UIKit's, measured bit for bit: charon §M7): the force **F** = 100 · ``strength`` ·
    /// fall(d) · n·∇n mass·pt/s² (S·fall·n·∇n newtons), where n is differentiable simplex noise and
    /// ∇n its gradient (x and y), sampled at the field-local point **p** + 100 pt·τ·(1, 1) scaled
    /// to the noise lattice, with τ as the third coordinate and the gradients turned by τ radians;
    /// τ, the noise time, starts at 0 and advances by ``animationSpeed`` × Δt each step. n·∇n =
    /// ½∇(n²): items are pushed toward the ridges of the pattern, which drifts and changes. Its
    /// root mean square is 0.70 and it rarely exceeds 2.5, as with UIKit's `srdnoise3` (our noise
    /// is our own; its force is scaled to those statistics). The force does not depend on the mass
    /// — UIKit's header says "Mass is ignored" — so heavier items move less: at strength 1, 70
    /// pt/s² (root mean square) on a mass-1 item.
    ///
    /// Real values: a "floating circles" background (stoqn4opm/UIKit-Dynamics-Demo) uses strength
    /// 50, smoothness 0.6 and animation speed 0.3 on circles of 20–92 pt and density ≈ 800 (mass
    /// 25–540): a slow drift of tens of pt/s. The pattern is deterministic: the same ``seed``,
    /// smoothness and history give bit-identical forces in every run and process.
    ///
    /// - Parameters:
    ///   - smoothness: 0 (noisiest: 7.1 pt lattice cells) … 1 (smoothest: 650 pt); see
    ///     ``smoothness``. Values outside are clamped; a non-finite value is reported and 0 used.
    ///   - animationSpeed: How fast the pattern changes, in Hz; 0 freezes it; see
    ///     ``animationSpeed``. A non-finite value, or one above 10⁶ Hz in size, is reported and 0
    ///     used.
    /// - Returns: A noise field of strength 1, acting everywhere.
    public class func noiseField(smoothness: CGFloat, animationSpeed: CGFloat) -> Self {
        let field = self.init(Law(.noise))
        field.setNoise(smoothness: smoothness, animationSpeed: animationSpeed)
        return field
    }

    /// A turbulence field: noise that only moving items feel, growing with the square of their
    /// speed.
    ///
    /// Law (UIKit's, measured bit for bit: charon §M7): PhysicsKit multiplies the noise force by
    /// m·|**v**|² (**v** in m/s), so the acceleration is the same for every mass: **a** = 100 ·
    /// ``strength`` · fall(d) · n·∇n · (|**v**| / 100 pt/s)² pt/s² — at 100 pt/s an item feels what
    /// the noise field's force gives a mass-1 item, at 200 pt/s four times that; an item at rest
    /// feels nothing. (Apple's documentation says "proportional to the velocity"; the measured law
    /// is the square.) The noise, ``smoothness``, ``animationSpeed`` and ``seed`` are as for
    /// ``noiseField(smoothness:animationSpeed:)``. Because the push grows faster than any drag
    /// proportional to the speed, strong turbulence makes items run away; keep the strength small
    /// for fast items.
    ///
    /// - Parameters:
    ///   - smoothness: 0 (noisiest: 7.1 pt lattice cells) … 1 (smoothest: 650 pt).
    ///   - animationSpeed: How fast the pattern changes, in Hz; 0 freezes it.
    /// - Returns: A turbulence field of strength 1, acting everywhere.
    public class func turbulenceField(smoothness: CGFloat, animationSpeed: CGFloat) -> Self {
        let field = self.init(Law(.turbulence))
        field.setNoise(smoothness: smoothness, animationSpeed: animationSpeed)
        return field
    }

    /// A spring field: pulls items back to ``position`` like a spring attached there.
    ///
    /// Law (UIKit's, charon §10.2): a pull toward ``position`` of **F** = −100 · ``strength`` ·
    /// fall(d) · **p̂** mass·pt/s² (S·fall newtons), like the other central fields. Its ``falloff``
    /// starts at −1, UIKit's default for this kind, where fall(d) = d / 100 pt and the law is
    /// Hooke's: **F** = −``strength`` · **p** mass·pt/s² — a spring constant of strength mass/s²
    /// (UIKit's S newtons per metre). Another falloff gives another central pull (0: the same pull
    /// at every distance, with the small core of the central fields at the position; −2: growing
    /// with the square of the distance). At the default falloff the force does not depend
    /// on the mass, so an item of mass m oscillates with the period T = 2π·√(m / strength) s: 6.3 s
    /// for a 100 × 100 pt item of density 1 at strength 1, which is why apps make their items light
    /// — Apple's StickyCorners sample (density 0.01, resistance 10) and the FaceTime-style corners
    /// (density 0.02, resistance 8) settle in a fraction of a second with a slight overshoot.
    /// Without damping it oscillates for ever (give items ``DynamicItemBehavior/resistance`` or add
    /// a ``dragField()``); the sampling described on ``FieldBehavior`` keeps its amplitude steady.
    ///
    /// - Returns: A spring field of strength 1 and falloff −1, at the origin, acting everywhere.
    public class func springField() -> Self {
        self.init(Law(.spring))
    }

    /// An electric field: pushes charged items away from ``position`` (positive charges, for a
    /// positive strength) or toward it.
    ///
    /// Law (Coulomb-like, F = qE; UIKit's, charon §10.2): **F** = 100 · ``strength`` · q · fall(d)
    /// · **p̂** mass·pt/s² (S·q·fall newtons), q the item's ``DynamicItemBehavior/charge``. Like
    /// charges repel: a positive charge is pushed away from a positive field, a negative charge
    /// pulled toward it. A mass-1 item of charge 1 at strength 1 accelerates at 100 pt/s²; heavier
    /// items accelerate less. Uncharged items (charge 0, the default) feel nothing. Its ``falloff``
    /// starts at 1, UIKit's default for this kind (half the push at twice the distance from
    /// 100 pt); set it to 2 for a point charge's inverse-square field, 0 for a uniform one. As for radial gravity, the field fades
    /// inside a small core and the step keeps the item's energy.
    ///
    /// - Returns: An electric field of strength 1 and falloff 1, at the origin, acting everywhere.
    public class func electricField() -> Self {
        self.init(Law(.electric))
    }

    /// A magnetic field: bends the paths of moving charged items into circles.
    ///
    /// Law (Lorentz, F = q·**v** × **B**; UIKit's, charon §10.2): **F** = ``strength`` · q ·
    /// fall(d) · (vy, −vx) mass·pt/s² (S·fall newtons per m/s). It turns positive charges
    /// **counter-clockwise on screen** (y down) for a positive strength, clockwise for a negative
    /// one, at the angular rate ω = strength · q · fall(d) / m rad/s: a mass-1 item of charge 1 at
    /// strength 1, 100 pt from ``position`` (where fall is 1 whatever the falloff), circles once in
    /// 2π s, on a circle of radius speed / ω. Its ``falloff`` starts at 1, UIKit's default for this
    /// kind, so the field is half as strong at 200 pt; set it to 0 for a uniform field. The field does no work: it
    /// is applied as an exact rotation of the velocity by ω·Δt each step, so the speed is kept.
    /// Uncharged items (charge 0) feel nothing. (UIKit measures the charge only to switch the force
    /// off when it is 0 — charges 2, 1 and −1 turn alike there; here the force is q·**v** × **B**
    /// as Apple documents it, which is the same for charge 1.)
    ///
    /// - Returns: A magnetic field of strength 1 and falloff 1, at the origin, acting everywhere.
    public class func magneticField() -> Self {
        self.init(Law(.magnetic))
    }

    /// A field whose law you write.
    ///
    /// The block is called once per step for every awake item of the field whose center is inside
    /// ``region`` (measured from ``position``), with (field, position, velocity, mass, charge,
    /// time): the item's center in the **animator's coordinate space** (pt), its velocity (pt/s),
    /// its mass (density × area / 10 000 pt²), its charge and the animator's clock at the end of
    /// the step (s), as ``EvaluationBlock`` describes — UIKit passes its simulation clock, not the
    /// step's duration, so a block may start acting after a delay. It returns the force in
    /// mass·pt/s², applied at the item's center of mass for the step (a ``PushBehavior`` of
    /// magnitude 1 is 100 of these; `CGVector(dx: 0, dy: 1000 * mass)` is one gravity).
    /// ``strength``, ``falloff`` and ``minimumRadius`` are **not** applied: read them from the
    /// field argument if you want them. A non-finite result (or one that would accelerate the item
    /// by more than 10¹² pt/s²) is ignored for that item for that step and reported once.
    ///
    /// Keep the block fast: it runs for every item every step.
    ///
    /// - Parameter evaluationBlock: The law: (field, position, velocity, mass, charge, time) → force.
    /// - Returns: A custom field, at the origin, acting everywhere.
    public class func field(evaluationBlock: @escaping EvaluationBlock) -> Self {
        self.init(Law(.custom, evaluationBlock: evaluationBlock))
    }

    // MARK: Factory helpers

    private func sanitizedVector(_ vector: CGVector) -> CGVector {
        guard vector.dx.isFinite, vector.dy.isFinite else {
            report(.nonFiniteValue(property: "FieldBehavior.direction"),
                   "FieldBehavior.direction cannot be (\(vector.dx), \(vector.dy)); using (0, 0).")
            return .zero
        }
        return vector
    }

    private func setNoise(smoothness: CGFloat, animationSpeed: CGFloat) {
        let s = sanitized(smoothness, "smoothness", fallback: 0)
        let clamped = min(max(s, 0), 1)
        if clamped != s { report(.valueOutOfRange(property: "FieldBehavior.smoothness"),
                                 "FieldBehavior.smoothness must be in 0…1, not \(s); using \(clamped).") }
        storedSmoothness = clamped
        noiseFrequency = Self.noiseFrequency(smoothness: clamped)
        let speed = sanitized(animationSpeed, "animationSpeed", fallback: 0)
        if abs(speed) > 1_000_000 { report(.valueOutOfRange(property: "FieldBehavior.animationSpeed"),
                                           "FieldBehavior.animationSpeed cannot be \(speed) (at most 10⁶ Hz in size); using 0.") }
        storedAnimationSpeed = abs(speed) > 1_000_000 ? 0 : speed
    }
}
