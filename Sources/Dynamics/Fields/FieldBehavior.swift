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
/// sun.falloff = 2                      // inverse-square: 1000 pt/s² at 100 pt, 250 at 200 pt
/// sun.region = Region(radius: 180)     // no pull beyond 180 pt
/// sun.addItem(ball)
/// animator.addBehavior(sun)
/// ```
///
/// ## The common law
///
/// Every built-in field computes an acceleration **a** (pt/s²) for each awake, movable item and
/// applies the force m·**a** (mass·pt/s², m = density × area / 10 000 pt²) at its center of mass
/// for the whole step. With **p** the item's center minus ``position`` (pt), d = |**p**|,
/// **p̂** = **p**/d (zero when d = 0), **v** the item's velocity (pt/s) and q its charge (from
/// ``DynamicItemBehavior/charge``):
///
/// - **Region.** No force when **p** is outside ``region`` (the region is centred on ``position``).
/// - **Strength.** Every built-in law scales with ``strength`` (default 1) — the acceleration, the
///   drag rate or the target velocity, as each factory says; a negative strength reverses it.
///   The custom field is the exception: your block's force is used as is.
/// - **Falloff.** Every built-in law is multiplied by fall(d) = (max(d, ``minimumRadius``) /
///   100 pt)^(−``falloff``): the reference distance is **100 pt**, where the factor is 1 whatever
///   the falloff. Falloff 0 (the default) is uniform; falloff 2 is inverse-square, so the force
///   quarters at twice the distance; a negative falloff grows with distance. Distances below
///   ``minimumRadius`` (and below 0.001 pt, so the factor stays finite) count as that radius.
/// - **Sampling.** Position-dependent laws are evaluated at the item's center advanced by
///   γ·Δt·**v** with γ = (N − 1)/(2N), Δt the animator's step and N its ``DynamicAnimator/substeps``
///   (γ = 3/8 by default: 0.625 pt ahead for an item moving at 100 pt/s at 60 Hz). This makes the
///   engine's step preserve phase-space area, so an undamped spring keeps its amplitude and an
///   orbit its radius instead of gaining energy every step. The region test and the custom block
///   use the item's actual center.
/// - **Containment.** A non-finite acceleration, or one above 10¹² pt/s², is ignored for that item
///   for that step and reported once; other items are unaffected.
///
/// Forces do not wake a resting item (as with ``GravityBehavior``); changing any property of the
/// field, to a new valid value, wakes its items and resumes a paused animator. Invalid values
/// (non-finite, or negative where that makes no sense) are reported as a ``DynamicsDiagnostic``
/// and the last good value is kept.
///
/// The per-kind laws are documented on the factories. UIKit limits an animator to 32 fields;
/// this one has no limit.
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

    /// The signature of a custom field's law: (field, position, velocity, mass, charge, deltaTime)
    /// → force.
    ///
    /// - position: the item's center in the animator's coordinate space (pt), not relative to the
    ///   field;
    /// - velocity: the item's velocity (pt/s);
    /// - mass: density × area / 10 000 pt²;
    /// - charge: from ``DynamicItemBehavior/charge`` (0 by default);
    /// - deltaTime: the step (s);
    /// - returns: the force, in mass·pt/s² (a ``PushBehavior`` of magnitude 1 is 100 of these).
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

    var storedPosition = CGPoint.zero
    var storedRegion = Region.infinite
    /// Whether ``region`` is ``Region/infinite``, so the per-item region test can be skipped.
    var regionIsInfinite = true
    var storedStrength: CGFloat = 1
    var storedFalloff: CGFloat = 0
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
        super.init()
    }

    // MARK: Properties

    /// The field's origin, in the animator's coordinate space (pt). Default `.zero`. The
    /// ``region`` and every distance-dependent law are measured from it. A non-finite point, or
    /// one beyond ±10⁷ pt, is reported and ignored.
    public var position: CGPoint {
        get { storedPosition }
        set {
            guard validate(newValue, "position") else { return }
            guard newValue != storedPosition else { return }
            storedPosition = newValue
            didChange()
        }
    }

    /// Where the field acts, in points relative to ``position``: no force on items whose center is
    /// outside it. Default ``Region/infinite``.
    public var region: Region {
        get { storedRegion }
        set {
            guard newValue != storedRegion else { return }
            storedRegion = newValue
            regionIsInfinite = newValue == .infinite
            didChange()
        }
    }

    /// The field's strength, unitless: every built-in law is proportional to it (each factory says
    /// what 1 means); negative reverses the field. Default 1. Not applied to a custom field's
    /// block (read it there if you want it). A non-finite value is reported and ignored.
    public var strength: CGFloat {
        get { storedStrength }
        set {
            guard validate(newValue, "strength", allowsNegative: true) else { return }
            guard newValue != storedStrength else { return }
            storedStrength = newValue
            didChange()
        }
    }

    /// How the force changes with the distance d from ``position``: it is multiplied by
    /// (max(d, ``minimumRadius``) / 100 pt)^(−falloff). Default 0 (uniform); 2 is inverse-square
    /// (a quarter of the force at twice the distance); negative values grow with distance. Not
    /// applied to a custom field. A non-finite value is reported and ignored.
    public var falloff: CGFloat {
        get { storedFalloff }
        set {
            guard validate(newValue, "falloff", allowsNegative: true) else { return }
            guard newValue != storedFalloff else { return }
            storedFalloff = newValue
            didChange()
        }
    }

    /// The distance (pt) below which the falloff stops growing: closer items feel the force they
    /// would feel at this distance. Default 0 (distances are still floored at 0.001 pt). A negative
    /// or non-finite value is reported and ignored.
    public var minimumRadius: CGFloat {
        get { storedMinimumRadius }
        set {
            guard validate(newValue, "minimumRadius") else { return }
            guard newValue != storedMinimumRadius else { return }
            storedMinimumRadius = newValue
            didChange()
        }
    }

    /// The field's direction vector, for linear-gravity fields (units of 1000 pt/s²) and velocity
    /// fields (pt/s); ignored by the other kinds. Default `.zero`. A non-finite vector is
    /// reported and ignored.
    public var direction: CGVector {
        get { storedDirection }
        set {
            guard newValue.dx.isFinite, newValue.dy.isFinite else {
                report("FieldBehavior.direction cannot be (\(newValue.dx), \(newValue.dy)); the last good value is kept.")
                return
            }
            guard newValue != storedDirection else { return }
            storedDirection = newValue
            didChange()
        }
    }

    /// How smooth a noise or turbulence field is in space, 0 … 1: the noise's feature size is
    /// 10 × 100^smoothness pt (0 → 10 pt, the noisiest; 0.5 → 100 pt; 1 → 1000 pt, the smoothest).
    /// Ignored by the other kinds. Default 0. A value outside 0 … 1 is clamped into it and
    /// reported; a non-finite one is reported and ignored.
    public var smoothness: CGFloat {
        get { storedSmoothness }
        set {
            guard validate(newValue, "smoothness", allowsNegative: true) else { return }
            var value = newValue
            if !(0...1).contains(value) {
                value = min(max(value, 0), 1)
                report("FieldBehavior.smoothness must be in 0…1, not \(newValue); using \(value).")
            }
            guard value != storedSmoothness else { return }
            storedSmoothness = value
            noiseFrequency = Self.noiseFrequency(smoothness: value)
            didChange()
        }
    }

    /// How fast a noise or turbulence field changes in time, in Hz: the noise's time coordinate
    /// advances by animationSpeed × Δt noise features per step, so about `animationSpeed`
    /// independent patterns a second. 0 freezes the pattern; a negative speed runs it backward.
    /// Ignored by the other kinds. Default 0. A non-finite value, or one above 10⁶ Hz in size, is
    /// reported and ignored.
    public var animationSpeed: CGFloat {
        get { storedAnimationSpeed }
        set {
            guard validate(newValue, "animationSpeed", allowsNegative: true, maximum: 1_000_000) else { return }
            guard newValue != storedAnimationSpeed else { return }
            storedAnimationSpeed = newValue
            didChange()
        }
    }

    /// Chooses the pattern of a noise or turbulence field (beyond UIKit). Fields with equal seeds
    /// and smoothness have the same pattern; the pattern depends on nothing else (not on the run,
    /// the process or the platform). Default 0.
    public var seed: UInt64 {
        get { storedSeed }
        set {
            guard newValue != storedSeed else { return }
            storedSeed = newValue
            noiseSeed = SimplexNoise.foldSeed(newValue)
            didChange()
        }
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
    }

    override func detach(from animator: DynamicAnimator) {
        records = []
        bodies = []
        charges = []
    }

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

    /// 1 / the noise feature size: the feature is 10 × 100^smoothness pt.
    static func noiseFrequency(smoothness: CGFloat) -> Double {
        1 / (10 * pow(100, Double(smoothness)))
    }

    /// The factories' check of a factory argument: non-finite → reported (when the field joins an
    /// animator) and replaced by `fallback`.
    private func sanitized(_ value: CGFloat, _ name: String, fallback: CGFloat) -> CGFloat {
        guard value.isFinite else {
            report("FieldBehavior.\(name) cannot be \(value); using \(fallback).")
            return fallback
        }
        return value
    }
}

// MARK: - Factories

extension FieldBehavior {
    /// A drag field: slows items down, like a thick fluid.
    ///
    /// Law: the velocity decays exponentially at the rate c = ``strength`` × fall(d) per second,
    /// **v**(t + Δt) = **v**(t)·e^(−c·Δt) — the force −m·c·**v** for small steps, applied exactly
    /// (the force m·**v**·(e^(−cΔt) − 1)/Δt), so no strength makes it overshoot or reverse the
    /// motion. Strength 1 is the same damping as a ``DynamicItemBehavior/resistance`` of 1: about
    /// 63 % of the speed is lost per second (half in 0.69 s). A negative strength speeds items up
    /// exponentially.
    ///
    /// - Returns: A drag field of strength 1, at the origin, acting everywhere.
    public class func dragField() -> Self {
        self.init(Law(.drag))
    }

    /// A vortex field: spins items around ``position``.
    ///
    /// Law: a tangential acceleration of 1000 pt/s² × ``strength`` × fall(d), **a** =
    /// 1000 · strength · fall(d) · (p̂y, −p̂x) — **counter-clockwise on screen** (y down) for a
    /// positive strength, clockwise for a negative one; none at the position itself. The magnitude
    /// does not depend on the distance unless ``falloff`` is set (falloff −1 makes it proportional
    /// to the distance, like a turning disc).
    ///
    /// - Returns: A vortex field of strength 1, at the origin, acting everywhere.
    public class func vortexField() -> Self {
        self.init(Law(.vortex))
    }

    /// A radial gravity field: pulls items toward `position`, whatever their mass.
    ///
    /// Law: **a** = −1000 pt/s² · ``strength`` · fall(d) · **p̂** — toward ``position`` for a
    /// positive strength (1 = 1000 pt/s², one ``GravityBehavior`` gravity, at 100 pt or, with
    /// falloff 0, everywhere), away for a negative one; none at the position itself. Set
    /// ``falloff`` to 2 for Newtonian inverse-square gravity (1000 pt/s² at 100 pt, 250 at 200 pt)
    /// and ``minimumRadius`` to soften the center.
    ///
    /// - Parameter position: The attracting point, in the animator's coordinate space (pt). A
    ///   non-finite point, or one beyond ±10⁷ pt, is reported and the origin used.
    /// - Returns: A radial gravity field of strength 1 at `position`, acting everywhere.
    public class func radialGravityField(position: CGPoint) -> Self {
        let field = self.init(Law(.radialGravity))
        if position.isUsableAnimatorValue {
            field.storedPosition = position
        } else {
            field.report("FieldBehavior.position cannot be (\(position.x), \(position.y)); using (0, 0).")
        }
        return field
    }

    /// A linear gravity field: a uniform acceleration, whatever the mass — a ``GravityBehavior``
    /// that can be confined to a region and given a falloff.
    ///
    /// Law: **a** = 1000 pt/s² · ``strength`` · fall(d) · ``direction``. With strength 1 and
    /// direction (0, 1) it is exactly a ``GravityBehavior`` of magnitude 1: 1000 pt/s² down the
    /// screen, so an item falls 500 pt in its first second. The direction's length counts, as
    /// ``GravityBehavior/gravityDirection``'s does.
    ///
    /// - Parameter direction: The acceleration in units of 1000 pt/s² (y down). A non-finite
    ///   vector is reported and `.zero` used.
    /// - Returns: A linear gravity field of strength 1, acting everywhere.
    public class func linearGravityField(direction: CGVector) -> Self {
        let field = self.init(Law(.linearGravity))
        field.storedDirection = field.sanitizedVector(direction)
        return field
    }

    /// A velocity field: drives items toward a target velocity, like a current or a conveyor.
    ///
    /// Law: the target is **u** = ``strength`` × ``direction`` (pt/s); each item's velocity
    /// relaxes toward it exponentially with the time constant τ = 0.05 s / fall(d):
    /// **v**(t + Δt) = **u** + (**v**(t) − **u**)·e^(−fall(d)·Δt/τ) — the force m·(**u** − **v**)/τ
    /// for small steps, applied exactly so it never overshoots. With no other forces an item
    /// reaches 95 % of the target velocity in 0.15 s (9 steps at 60 Hz). Other forces still act
    /// and are opposed: under a gravity g the item settles a little beyond the target, by about
    /// g·τ (≈ 60 pt/s for 1000 pt/s² at 60 Hz).
    ///
    /// - Parameter direction: The target velocity at strength 1, in pt/s. A non-finite vector is
    ///   reported and `.zero` used.
    /// - Returns: A velocity field of strength 1, acting everywhere.
    public class func velocityField(direction: CGVector) -> Self {
        let field = self.init(Law(.velocity))
        field.storedDirection = field.sanitizedVector(direction)
        return field
    }

    /// A noise field: smooth, random-looking pushes that vary with position and time, whatever the
    /// mass.
    ///
    /// Law: **a** = 1000 pt/s² · ``strength`` · fall(d) · **n**(x/L, y/L, τ), where **n** is
    /// two channels of seeded 3-D simplex gradient noise (each in about −1…1, root mean square
    /// 0.39, mean 0), (x, y) the item's center in the animator's space (pt), L = 10 × 100^smoothness
    /// pt the feature size and τ the noise time, which starts at 0 and advances by
    /// ``animationSpeed`` × Δt each step. The pattern is deterministic: the same ``seed``,
    /// smoothness and history give bit-identical forces in every run and process.
    ///
    /// - Parameters:
    ///   - smoothness: 0 (noisiest: 10 pt features) … 1 (smoothest: 1000 pt features). Values
    ///     outside are clamped; a non-finite value is reported and 0 used.
    ///   - animationSpeed: How fast the pattern changes, in Hz (noise features per second along
    ///     time); 0 freezes it. A non-finite value, or one above 10⁶ Hz in size, is reported and 0
    ///     used.
    /// - Returns: A noise field of strength 1, acting everywhere.
    public class func noiseField(smoothness: CGFloat, animationSpeed: CGFloat) -> Self {
        let field = self.init(Law(.noise))
        field.setNoise(smoothness: smoothness, animationSpeed: animationSpeed)
        return field
    }

    /// A turbulence field: noise that only moving items feel, in proportion to their speed.
    ///
    /// Law: the noise field's acceleration scaled by the speed over 100 pt/s:
    /// **a** = 1000 pt/s² · ``strength`` · fall(d) · **n**(x/L, y/L, τ) · |**v**| / (100 pt/s)
    /// (that is, 10 /s · strength · fall · |**v**| · **n**). An item at rest feels nothing; at
    /// 100 pt/s it feels exactly what ``noiseField(smoothness:animationSpeed:)`` would give it.
    /// The noise, ``smoothness``, ``animationSpeed`` and ``seed`` are as for the noise field.
    ///
    /// - Parameters:
    ///   - smoothness: 0 (noisiest: 10 pt features) … 1 (smoothest: 1000 pt features).
    ///   - animationSpeed: How fast the pattern changes, in Hz; 0 freezes it.
    /// - Returns: A turbulence field of strength 1, acting everywhere.
    public class func turbulenceField(smoothness: CGFloat, animationSpeed: CGFloat) -> Self {
        let field = self.init(Law(.turbulence))
        field.setNoise(smoothness: smoothness, animationSpeed: animationSpeed)
        return field
    }

    /// A spring field: pulls items back to ``position`` like a spring attached there.
    ///
    /// Law (Hooke): **F** = −k · fall(d) · **p** with k = 4π² mass/s² × ``strength``
    /// (≈ 39.48 mass/s² at strength 1). The force does not depend on the mass, so an item of
    /// mass m oscillates with the period T = √(m / strength) s: **1 s for a mass-1 item** (a
    /// 100 × 100 pt item of density 1) at strength 1, 2 s at strength ¼. Without damping it
    /// oscillates for ever (give items ``DynamicItemBehavior/resistance`` or add a
    /// ``dragField()``); the sampling described on ``FieldBehavior`` keeps its amplitude steady.
    ///
    /// - Returns: A spring field of strength 1, at the origin, acting everywhere.
    public class func springField() -> Self {
        self.init(Law(.spring))
    }

    /// An electric field: pushes charged items away from ``position`` (positive charges, for a
    /// positive strength) or toward it.
    ///
    /// Law (Coulomb-like, F = qE): **F** = 1000 mass·pt/s² · ``strength`` · q · fall(d) · **p̂**,
    /// q the item's ``DynamicItemBehavior/charge``. Like charges repel: a positive charge is pushed
    /// away from a positive field, a negative charge pulled toward it. A mass-1 item of charge 1
    /// at strength 1 accelerates at 1000 pt/s² (one gravity); heavier items accelerate less.
    /// Uncharged items (charge 0, the default) feel nothing. Set ``falloff`` to 2 for a point
    /// charge's inverse-square field.
    ///
    /// - Returns: An electric field of strength 1, at the origin, acting everywhere.
    public class func electricField() -> Self {
        self.init(Law(.electric))
    }

    /// A magnetic field: bends the paths of moving charged items into circles.
    ///
    /// Law (Lorentz, F = q·**v** × **B**): **F** = 2π mass/s · ``strength`` · q · fall(d) ·
    /// (**v** × **ẑ**) = 2π · strength · q · fall · (vy, −vx), ẑ pointing into the screen. It
    /// turns positive charges **counter-clockwise on screen** (y down) for a positive strength,
    /// clockwise for a negative one, at the angular rate ω = 2π · strength · q · fall(d) / m rad/s:
    /// a mass-1 item of charge 1 at strength 1 circles once a second, on a circle of radius
    /// speed / 2π. The field does no work: it is applied as an exact rotation of the velocity by
    /// ω·Δt each step, so the speed is kept. Uncharged items (charge 0) feel nothing.
    ///
    /// - Returns: A magnetic field of strength 1, at the origin, acting everywhere.
    public class func magneticField() -> Self {
        self.init(Law(.magnetic))
    }

    /// A field whose law you write.
    ///
    /// The block is called once per step for every awake item of the field whose center is inside
    /// ``region`` (measured from ``position``), with (field, position, velocity, mass, charge,
    /// deltaTime): the item's center in the **animator's coordinate space** (pt), its velocity
    /// (pt/s), its mass (density × area / 10 000 pt²), its charge and the step (s). It returns
    /// the force in mass·pt/s², applied at the item's center of mass for the step (a
    /// ``PushBehavior`` of magnitude 1 is 100 of these; `CGVector(dx: 0, dy: 1000 * mass)` is one
    /// gravity). ``strength``, ``falloff`` and ``minimumRadius`` are **not** applied: read them
    /// from the field argument if you want them. A non-finite result (or one that would accelerate
    /// the item by more than 10¹² pt/s²) is ignored for that item for that step and reported once.
    ///
    /// Keep the block fast: it runs for every item every step.
    ///
    /// - Parameter evaluationBlock: The law: (field, position, velocity, mass, charge, deltaTime)
    ///   → force.
    /// - Returns: A custom field, at the origin, acting everywhere.
    public class func field(evaluationBlock: @escaping EvaluationBlock) -> Self {
        self.init(Law(.custom, evaluationBlock: evaluationBlock))
    }

    // MARK: Factory helpers

    private func sanitizedVector(_ vector: CGVector) -> CGVector {
        guard vector.dx.isFinite, vector.dy.isFinite else {
            report("FieldBehavior.direction cannot be (\(vector.dx), \(vector.dy)); using (0, 0).")
            return .zero
        }
        return vector
    }

    private func setNoise(smoothness: CGFloat, animationSpeed: CGFloat) {
        let s = sanitized(smoothness, "smoothness", fallback: 0)
        let clamped = min(max(s, 0), 1)
        if clamped != s { report("FieldBehavior.smoothness must be in 0…1, not \(s); using \(clamped).") }
        storedSmoothness = clamped
        noiseFrequency = Self.noiseFrequency(smoothness: clamped)
        let speed = sanitized(animationSpeed, "animationSpeed", fallback: 0)
        if abs(speed) > 1_000_000 { report("FieldBehavior.animationSpeed cannot be \(speed) (at most 10⁶ Hz in size); using 0.") }
        storedAnimationSpeed = abs(speed) > 1_000_000 ? 0 : speed
    }
}
