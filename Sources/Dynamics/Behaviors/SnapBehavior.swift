import DynamicsEngine
import Foundation

/// Pulls an item to a point with a damped spring, settling it there: UIKit's `UISnapBehavior`.
///
/// The law: the item's center is pulled toward ``snapPoint`` by a spring of
/// ``SnapBehavior/frequency`` (4 Hz, UIKit's) with damping ratio ζ = 0.2 + 0.8 × ``damping``, so
/// ``damping`` 0 oscillates most (ζ = 0.2, about 53 % overshoot) and 1 is critically damped (no
/// overshoot); the default 0.5 gives ζ = 0.6 (about 10 % overshoot). The spring is independent of
/// the item's mass and is solved implicitly in the engine's sub-steps (a soft target
/// constraint), with its force capped at 10⁶ pt/s² × mass so a snap cannot fling an item through
/// a wall. From a few hundred points away the item settles within 1 pt in well under 2 s.
///
/// A second spring of the same frequency and damping ratio turns the item back to the rotation it
/// had when the snap joined the animator, so off-center hits don't leave it askew. Use a
/// ``DynamicItemBehavior`` with `allowsRotation = false` to forbid rotation altogether.
open class SnapBehavior: DynamicBehavior {
    /// The spring frequency, in Hz: 4.
    public static let frequency: CGFloat = 4

    /// The cap on the snapping force, per unit of mass, in pt/s²: 10⁶.
    public static let accelerationLimit: CGFloat = 1_000_000

    /// The damping ratio used for a given ``damping``: 0.2 + 0.8 × damping.
    public static func dampingRatio(forDamping damping: CGFloat) -> CGFloat { 0.2 + 0.8 * damping }

    /// The item snapped.
    public let item: any DynamicItem

    private var storedSnapPoint: CGPoint
    private var storedDamping: CGFloat = 0.5
    private var joint: JointID = .null
    private var jointBody: BodyID = .null
    private var jointMass: Float = -1
    private var targetAngle: CGFloat = 0

    /// The point the item's center is pulled to, in points (the animator's coordinate space).
    /// Setting it resumes a paused animator. A non-finite point, or one beyond ±10⁷ pt, is
    /// reported and ignored.
    public var snapPoint: CGPoint {
        get { storedSnapPoint }
        set {
            guard validate(newValue, "snapPoint") else { return }
            update(\.storedSnapPoint, to: newValue, needsSync: true)
        }
    }

    /// How quickly oscillations die, from 0 (most oscillation) to 1 (none). Default 0.5. Values
    /// outside 0…1 or non-finite are reported and ignored.
    public var damping: CGFloat {
        get { storedDamping }
        set {
            guard newValue.isFinite, (0...1).contains(newValue) else {
                report(.refused("SnapBehavior.damping", isFinite: newValue.isFinite),
                       "SnapBehavior.damping must be in 0…1, not \(newValue); the last good value is kept.")
                return
            }
            update(\.storedDamping, to: newValue, needsSync: true)
        }
    }

    /// The snapped item, as a one-element array.
    public var items: [any DynamicItem] { [item] }

    /// Creates a snap of `item` to `point`.
    ///
    /// - Parameters:
    ///   - item: The item to snap.
    ///   - point: The point to snap to, in points. A non-finite point, or one beyond ±10⁷ pt, is
    ///     reported and the item's current center is used (or (0, 0) if that is unusable too).
    public init(item: any DynamicItem, snapTo point: CGPoint) {
        self.item = item
        let center = item.center
        storedSnapPoint = point.isUsableAnimatorValue ? point : center.isUsableAnimatorValue ? center : .zero
        super.init()
        if !point.isUsableAnimatorValue {
            report(.refused("SnapBehavior.snapPoint", point),
                   "SnapBehavior cannot snap to (\(point.x), \(point.y)); snapping to (\(storedSnapPoint.x), \(storedSnapPoint.y)) instead.")
        }
    }

    override var heldItems: [any DynamicItem] { [item] }

    override func detach(from animator: DynamicAnimator) {
        if animator.world.isValid(joint) { animator.world.destroyJoint(joint) }
        joint = .null
        jointBody = .null
    }

    override func attach(to animator: DynamicAnimator) {
        joint = .null
        jointBody = .null
    }

    override func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {
        writer.add(storedSnapPoint)
        writer.add(storedDamping)
        writer.add(joint)
        writer.add(jointBody)
        writer.add(jointMass)
        writer.add(targetAngle)
    }

    override func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        let point = try reader.point()
        let damping = try reader.finite()
        guard (0...1).contains(damping) else { throw reader.corrupt("damping \(damping) is not in 0…1") }
        let savedJoint = try reader.jointID()
        let savedBody = try reader.bodyID()
        let mass = try reader.float()
        let angle = try reader.finite()
        // The ids may be stale (the item left the world since): they are only compared and
        // checked with `isValid`, as before the snapshot.
        return { [self] in
            storedSnapPoint = point
            storedDamping = damping
            joint = savedJoint
            jointBody = savedBody
            jointMass = mass
            targetAngle = angle
        }
    }

    private var hertz: Float { Float(Self.frequency) }
    private var ratio: Float { Float(Self.dampingRatio(forDamping: storedDamping)) }

    override func syncWorld(_ animator: DynamicAnimator) {
        let world = animator.world
        guard let r = animator.record(for: item) else {
            if world.isValid(joint) { world.destroyJoint(joint) }
            joint = .null
            return
        }
        let mass = world.mass(r.body)
        if !world.isValid(joint) || jointBody != r.body {
            if world.isValid(joint) { world.destroyJoint(joint) }
            targetAngle = CGFloat(world.angle(r.body))
            var def = JointDef(kind: .target)
            def.bodyA = animator.anchorBody
            def.bodyB = r.body
            def.localAnchorB = .zero
            def.target = Vec2(storedSnapPoint)
            def.hertz = hertz
            def.dampingRatio = ratio
            def.maxForce = mass * Float(Self.accelerationLimit)
            joint = world.createJoint(def) ?? .null
            jointBody = r.body
            jointMass = mass
            return
        }
        let def = world.jointDef(joint)
        let target = Vec2(storedSnapPoint)
        if def?.target != target || def?.dampingRatio != ratio || jointMass != mass {
            jointMass = mass
            let (h, z) = (hertz, ratio)
            world.updateJoint(joint) { d in
                d.target = target
                d.hertz = h
                d.dampingRatio = z
                d.maxForce = mass * Float(Self.accelerationLimit)
            }
        }
    }

    /// The angular spring: τ = I·(−ω²·Δθ − 2ζω·θ̇), Δθ from the rotation at association.
    override var appliesForces: Bool { true }

    override func applyForces(in animator: DynamicAnimator, dt: TimeInterval) {
        guard let r = animator.record(for: item), animator.isMovable(r) else { return }
        let inertia = animator.rotationalInertia(of: r)
        guard inertia > 0 else { return }
        let omega = 2 * CGFloat.pi * Self.frequency
        let zeta = Self.dampingRatio(forDamping: storedDamping)
        var delta = CGFloat(animator.world.angle(r.body)) - targetAngle
        delta = remainder(delta, 2 * CGFloat.pi)
        let spin = animator.angularVelocity(of: r)
        animator.applyTorque(inertia * (-omega * omega * delta - 2 * zeta * omega * spin), to: r)
    }
}
