import DynamicsEngine
import Foundation

/// Joins an item to a fixed anchor point or to another item: UIKit's `UIAttachmentBehavior`.
///
/// The initializers make a *distance* attachment: the attachment points (each item's center plus
/// an offset in the item's own, unrotated frame) are kept ``length`` apart, their initial
/// distance. With ``frequency`` 0 (the default) it is a rigid rod (a rod shorter than 1 pt
/// becomes a pin); with a positive frequency it is a spring of that frequency (Hz) whose damping
/// ratio is ``damping`` (1 = critical). The factories make the other kinds, all rigid:
/// - ``pinAttachment(with:attachedTo:attachmentAnchor:)``: the items turn about a shared point;
///   ``frictionTorque`` resists the turning; a finite ``attachmentRange`` limits the relative angle
///   (radians).
/// - ``slidingAttachment(with:attachedTo:attachmentAnchor:axisOfTranslation:)`` and
///   ``slidingAttachment(with:attachmentAnchor:axisOfTranslation:)``: relative motion only along
///   the axis, no relative rotation; a finite ``attachmentRange`` limits the travel (points).
/// - ``fixedAttachment(with:attachedTo:attachmentAnchor:)``: a weld; the items move as one (a
///   positive ``frequency`` softens it, with ``damping`` as the damping ratio).
/// - ``limitAttachment(with:offsetFromCenter:attachedTo:offsetFromCenter:)``: a rope; the points
///   may come closer but never farther than ``length``.
///
/// Attached items do not collide with each other. Items of an attachment join the animator's
/// world like those of any other behaviour.
open class AttachmentBehavior: DynamicBehavior {
    /// What an attachment joins. Raw values are UIKit's.
    public enum AttachmentType: Int, Sendable, Hashable, Codable {
        /// Two items.
        case items = 0
        /// An item and a fixed anchor point.
        case anchor = 1
    }

    enum Kind { case distance, limit, pin, sliding, fixed }

    // The fields fixed at creation are set once, by `adopt(_:)`, from every initialiser: the
    // public ones are designated so that subclasses can call them, as UIKit subclasses do.

    /// The attached items: one for an anchor attachment, two otherwise.
    public private(set) var items: [any DynamicItem] = []

    /// Whether the attachment joins two items or an item and an anchor point.
    public private(set) var attachedBehaviorType: AttachmentType = .anchor

    private(set) var kind: Kind = .distance
    /// The attachment point in items[0]'s frame, and in items[1]'s (pt).
    private var local1: CGPoint = .zero
    private var local2: CGPoint = .zero
    /// Sliding axis: in items[0]'s frame (two items) or the animator's axes (anchor).
    private var axis = CGVector(dx: 1, dy: 0)
    /// Angle of the second body relative to the first when created (rad).
    private var referenceAngle: CGFloat = 0
    private var storedAnchor: CGPoint = .zero
    private var storedLength: CGFloat = 0
    /// Whether ``length`` is measured again when the attachment joins an animator: until it is set.
    private var measuresLengthOnJoining = true
    private var storedDamping: CGFloat = 0
    private var storedFrequency: CGFloat = 0
    private var storedFrictionTorque: CGFloat = 0
    private var storedRange: ClosedRange<CGFloat> = -CGFloat.infinity...CGFloat.infinity
    private var isDegenerate = false
    private var joint: JointID = .null
    private var jointBodies = (BodyID.null, BodyID.null)
    private var needsJointUpdate = false
    /// The stiff spring frequency last reported (see ``checkStiffness(_:)``), so it is reported once.
    private var reportedStiffFrequency: CGFloat?

    // MARK: Properties

    /// The anchor point, in points (the animator's coordinate space). For an anchor attachment,
    /// moving it moves the anchor and keeps ``length``; for a pin, weld or slider between items it
    /// re-pins the items at the new point; for a distance or rope between items it is `.zero`
    /// unless set, and has no effect. A non-finite point, or one beyond ±10⁷ pt, is reported and
    /// ignored.
    public var anchorPoint: CGPoint {
        get { storedAnchor }
        set {
            guard validate(newValue, "anchorPoint") else { return }
            updateSetting(\.storedAnchor, to: newValue) {
                guard attachedBehaviorType == .items, kind == .pin || kind == .fixed || kind == .sliding else { return }
                let (c1, a1) = pose(of: items[0])
                let (c2, a2) = pose(of: items[1])
                local1 = CGPoint(x: newValue.x - c1.x, y: newValue.y - c1.y).rotatedForAnimator(by: -a1)
                local2 = CGPoint(x: newValue.x - c2.x, y: newValue.y - c2.y).rotatedForAnimator(by: -a2)
            }
        }
    }

    /// The distance kept between the attachment points, in points (0 for pins, sliders and welds,
    /// where it has no effect). For a rope, the largest distance. Negative, non-finite or values
    /// above 10⁷ pt are reported and ignored.
    ///
    /// Unless you set it, it is measured when the attachment joins an animator, from where the
    /// items and the anchor are then, as UIKit does (its attachments read a length of 0 until
    /// they join one); before that it reads the distance when the attachment was created. That
    /// is what lets Apple's pendulum sample create a dragging attachment once, with anchor
    /// `.zero`, and add it whenever a drag begins with the anchor under the finger: the weight is
    /// then held at the finger, not at its distance from the origin.
    public var length: CGFloat {
        get { storedLength }
        set {
            guard validate(newValue, "length", maximum: maximumAnimatorCoordinate) else { return }
            measuresLengthOnJoining = false
            updateSetting(\.storedLength, to: newValue)
        }
    }

    /// The spring's damping ratio (1 = critical damping), used when ``frequency`` > 0. Default 0.
    /// Negative or non-finite values are reported and ignored.
    public var damping: CGFloat {
        get { storedDamping }
        set {
            guard validate(newValue, "damping") else { return }
            updateSetting(\.storedDamping, to: newValue)
        }
    }

    /// The spring's frequency, in Hz; 0 (the default) makes the attachment rigid. Used by
    /// distance attachments and welds. Negative or non-finite values are reported and ignored.
    ///
    /// The spring is the textbook oscillator of ω = 2π·frequency and damping ratio ``damping``:
    /// undamped it keeps its amplitude, damped it decays as e^{−ζωt}. Up to 1/(2πh) Hz, h being the
    /// animator's sub-step (38 Hz by default), nothing is lost numerically; a stiffer spring is
    /// damped enough to stay stable, with a diagnostic (see <doc:Attachments>).
    public var frequency: CGFloat {
        get { storedFrequency }
        set {
            guard validate(newValue, "frequency") else { return }
            updateSetting(\.storedFrequency, to: newValue)
        }
    }

    /// A pin's resistance to turning, in UIKit torque units (1 = 10 000 mass·pt²/s², a force of
    /// 1 UIKit unit at 100 pt): the largest torque a motor of speed 0 spends holding the relative
    /// angle. Default 0 (turns freely). Negative or non-finite values are reported and ignored.
    public var frictionTorque: CGFloat {
        get { storedFrictionTorque }
        set {
            guard validate(newValue, "frictionTorque") else { return }
            updateSetting(\.storedFrictionTorque, to: newValue)
        }
    }

    /// The allowed range of motion: radians of relative rotation for a pin, points of travel
    /// along the axis for a slider (0 = the starting position). Infinite bounds mean unlimited.
    /// Default `-.infinity ... .infinity`. Ignored by other kinds. Also settable as UIKit's
    /// `UIFloatRange`: `FloatRange(minimum: -50, maximum: 50)`. A range no value lies in
    /// (`FloatRange.invalid`, what a reversed or NaN `FloatRange` becomes) is reported and
    /// the last good range kept.
    public var attachmentRange: ClosedRange<CGFloat> {
        get { storedRange }
        set {
            guard newValue.lowerBound < .infinity, newValue.upperBound > -.infinity else {
                report(.valueOutOfRange(property: "AttachmentBehavior.attachmentRange"),
                       "AttachmentBehavior.attachmentRange cannot be \(newValue) (a reversed or NaN FloatRange, or one no value lies in); the last good range is kept.")
                return
            }
            updateSetting(\.storedRange, to: newValue)
        }
    }

    // MARK: Creating attachments

    /// What an initialiser or factory worked out; `adopt(_:)` stores it.
    private struct Setup {
        var kind: Kind
        var type: AttachmentType
        var items: [any DynamicItem]
        var local1: CGPoint
        var local2 = CGPoint.zero
        var anchor = CGPoint.zero
        var axis = CGVector(dx: 1, dy: 0)
        var referenceAngle: CGFloat
        var length: CGFloat = 0
        var problems: [(DynamicsDiagnostic.Kind, String)]
    }

    private init(_ setup: Setup) {
        super.init()
        adopt(setup)
    }

    private func adopt(_ s: Setup) {
        kind = s.kind
        attachedBehaviorType = s.type
        items = s.items
        local1 = s.local1
        local2 = s.local2
        storedAnchor = s.anchor
        axis = s.axis
        referenceAngle = s.referenceAngle
        storedLength = s.length.isFinite ? min(s.length, 2 * maximumAnimatorCoordinate) : 0
        isDegenerate = items.count == 2 && items[0] === items[1]
        for (kind, message) in s.problems { report(kind, message) }
        if isDegenerate { report(.attachmentToItself(behavior: ObjectIdentifier(self)),
                                 "AttachmentBehavior: an item cannot be attached to itself; the attachment does nothing.") }
    }

    /// Attaches `item`'s center to the anchor `point` with a rigid rod of the current distance.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - point: The anchor, in points.
    public init(item: any DynamicItem, attachedToAnchor point: CGPoint) {
        super.init()
        adopt(Self.anchored(item, offset: .zero, point))
    }

    /// Attaches the point at `offset` from `item`'s center (points, in the item's frame) to the
    /// anchor `point` with a rigid rod of the current distance; the item may turn about it.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - offset: The attachment point relative to the item's center, in points (UIKit's
    ///     `UIOffset`; an ``Offset``).
    ///   - point: The anchor, in points.
    public init(item: any DynamicItem, offsetFromCenter offset: CGPoint, attachedToAnchor point: CGPoint) {
        super.init()
        adopt(Self.anchored(item, offset: offset, point))
    }

    private static func anchored(_ item: any DynamicItem, offset: CGPoint, _ point: CGPoint) -> Setup {
        var problems: [(DynamicsDiagnostic.Kind, String)] = []
        let o = checked(offset, "offsetFromCenter", fallback: .zero, &problems)
        let (c, a) = initialPose(of: item)
        let anchor = checked(point, "anchor", fallback: c, &problems)
        let attach = worldPoint(o, center: c, angle: a)
        return Setup(kind: .distance, type: .anchor, items: [item], local1: o, anchor: anchor, referenceAngle: a,
                     length: distance(attach, anchor), problems: problems)
    }

    /// Attaches the centers of `item1` and `item2` with a rigid rod of the current distance.
    ///
    /// - Parameters:
    ///   - item1: The first item.
    ///   - item2: The second item.
    public init(item item1: any DynamicItem, attachedTo item2: any DynamicItem) {
        super.init()
        adopt(Self.between(.distance, item1, .zero, item2, .zero))
    }

    /// Attaches a point of `item1` to a point of `item2` with a rigid rod of the current distance;
    /// both items may turn about their points.
    ///
    /// - Parameters:
    ///   - item1: The first item.
    ///   - offset1: The point on `item1`, relative to its center, in points (item frame).
    ///   - item2: The second item.
    ///   - offset2: The point on `item2`, relative to its center, in points (item frame).
    public init(item item1: any DynamicItem, offsetFromCenter offset1: CGPoint,
                attachedTo item2: any DynamicItem, offsetFromCenter offset2: CGPoint) {
        super.init()
        adopt(Self.between(.distance, item1, offset1, item2, offset2))
    }

    /// A distance or rope between a point of each item, of their current distance.
    private static func between(_ kind: Kind, _ item1: any DynamicItem, _ offset1: CGPoint,
                                _ item2: any DynamicItem, _ offset2: CGPoint) -> Setup {
        var problems: [(DynamicsDiagnostic.Kind, String)] = []
        let o1 = checked(offset1, "offsetFromCenter", fallback: .zero, &problems)
        let o2 = checked(offset2, "offsetFromCenter", fallback: .zero, &problems)
        let (c1, a1) = initialPose(of: item1)
        let (c2, a2) = initialPose(of: item2)
        let d = distance(worldPoint(o1, center: c1, angle: a1), worldPoint(o2, center: c2, angle: a2))
        return Setup(kind: kind, type: .items, items: [item1, item2], local1: o1, local2: o2, referenceAngle: a2 - a1,
                     length: d, problems: problems)
    }

    /// A slider between two items: they may move relative to each other only along `axis`
    /// (through `point`), and may not turn relative to each other.
    ///
    /// - Parameters:
    ///   - item1: The first item.
    ///   - item2: The second item.
    ///   - point: A point on the sliding line, in points.
    ///   - axis: The direction of travel in the animator's axes (its length does not matter); a
    ///     zero or non-finite axis is reported and (1, 0) used.
    public static func slidingAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                         attachmentAnchor point: CGPoint, axisOfTranslation axis: CGVector) -> AttachmentBehavior {
        var problems: [(DynamicsDiagnostic.Kind, String)] = []
        let (c1, a1) = initialPose(of: item1)
        let (c2, a2) = initialPose(of: item2)
        let p = checked(point, "attachmentAnchor", fallback: c1, &problems)
        let ax = checked(axis, &problems)
        let localAxis = CGPoint(x: ax.dx, y: ax.dy).rotatedForAnimator(by: -a1)
        return AttachmentBehavior(Setup(kind: .sliding, type: .items, items: [item1, item2], local1: local(p, c1, a1),
                                        local2: local(p, c2, a2), anchor: p, axis: CGVector(dx: localAxis.x, dy: localAxis.y),
                                        referenceAngle: a2 - a1, problems: problems))
    }

    /// A slider on a fixed rail: `item` may move only along `axis` through `point`, without turning.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - point: A point on the rail, in points.
    ///   - axis: The direction of travel (its length does not matter); a zero or non-finite axis is
    ///     reported and (1, 0) used.
    public static func slidingAttachment(with item: any DynamicItem, attachmentAnchor point: CGPoint,
                                         axisOfTranslation axis: CGVector) -> AttachmentBehavior {
        var problems: [(DynamicsDiagnostic.Kind, String)] = []
        let (c, a) = initialPose(of: item)
        let p = checked(point, "attachmentAnchor", fallback: c, &problems)
        let ax = checked(axis, &problems)
        return AttachmentBehavior(Setup(kind: .sliding, type: .anchor, items: [item], local1: local(p, c, a), anchor: p, axis: ax,
                                        referenceAngle: a, problems: problems))
    }

    /// A rope between a point of `item1` and a point of `item2`: they may come closer but never
    /// farther apart than their current distance (``length``).
    ///
    /// - Parameters:
    ///   - item1: The first item.
    ///   - offset1: The point on `item1`, relative to its center, in points (item frame).
    ///   - item2: The second item.
    ///   - offset2: The point on `item2`, relative to its center, in points (item frame).
    public static func limitAttachment(with item1: any DynamicItem, offsetFromCenter offset1: CGPoint,
                                       attachedTo item2: any DynamicItem, offsetFromCenter offset2: CGPoint) -> AttachmentBehavior {
        AttachmentBehavior(between(.limit, item1, offset1, item2, offset2))
    }

    /// A weld: `item1` and `item2` move and turn as one, joined at `point`.
    ///
    /// - Parameters:
    ///   - item1: The first item.
    ///   - item2: The second item.
    ///   - point: The weld point, in points.
    public static func fixedAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                       attachmentAnchor point: CGPoint) -> AttachmentBehavior {
        pinned(.fixed, item1, item2, point)
    }

    /// A pin: `item1` and `item2` turn about the shared `point`, which keeps its distance to both.
    ///
    /// - Parameters:
    ///   - item1: The first item.
    ///   - item2: The second item.
    ///   - point: The pin, in points.
    public static func pinAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                     attachmentAnchor point: CGPoint) -> AttachmentBehavior {
        pinned(.pin, item1, item2, point)
    }

    private static func pinned(_ kind: Kind, _ item1: any DynamicItem, _ item2: any DynamicItem, _ point: CGPoint) -> AttachmentBehavior {
        var problems: [(DynamicsDiagnostic.Kind, String)] = []
        let (c1, a1) = initialPose(of: item1)
        let (c2, a2) = initialPose(of: item2)
        let p = checked(point, "attachmentAnchor", fallback: c1, &problems)
        return AttachmentBehavior(Setup(kind: kind, type: .items, items: [item1, item2], local1: local(p, c1, a1),
                                        local2: local(p, c2, a2), anchor: p, referenceAngle: a2 - a1, problems: problems))
    }

    // MARK: Geometry helpers

    private static func initialPose(of item: any DynamicItem) -> (CGPoint, CGFloat) {
        let c = item.center
        let a = item.transform.animatorAngle
        return (c.isUsableAnimatorValue ? c : .zero, a.isFinite ? a : 0)
    }

    /// The item's pose now: from the world when it is in one, else from the item.
    private func pose(of item: any DynamicItem) -> (CGPoint, CGFloat) {
        if let animator = dynamicAnimator, let r = animator.record(for: item) {
            return (animator.center(of: r), CGFloat(animator.world.angle(r.body)))
        }
        return Self.initialPose(of: item)
    }

    private static func worldPoint(_ offset: CGPoint, center: CGPoint, angle: CGFloat) -> CGPoint {
        let r = offset.rotatedForAnimator(by: angle)
        return CGPoint(x: center.x + r.x, y: center.y + r.y)
    }

    private static func local(_ p: CGPoint, _ center: CGPoint, _ angle: CGFloat) -> CGPoint {
        CGPoint(x: p.x - center.x, y: p.y - center.y).rotatedForAnimator(by: -angle)
    }

    private static func distance(_ a: CGPoint, _ b: CGPoint) -> CGFloat {
        CGFloat(hypot(Double(b.x - a.x), Double(b.y - a.y)))
    }

    private static func checked(_ p: CGPoint, _ name: String, fallback: CGPoint, _ problems: inout [(DynamicsDiagnostic.Kind, String)]) -> CGPoint {
        guard p.isUsableAnimatorValue else {
            problems.append((.refused("AttachmentBehavior.\(name)", p), "AttachmentBehavior: \(name) (\(p.x), \(p.y)) is not finite or beyond ±10⁷ pt; using (\(fallback.x), \(fallback.y))."))
            return fallback
        }
        return p
    }

    private static func checked(_ axis: CGVector, _ problems: inout [(DynamicsDiagnostic.Kind, String)]) -> CGVector {
        let length = hypot(Double(axis.dx), Double(axis.dy))
        guard length.isFinite, length > 0 else {
            problems.append((.refused("AttachmentBehavior.axisOfTranslation", isFinite: length.isFinite),
                              "AttachmentBehavior: axisOfTranslation (\(axis.dx), \(axis.dy)) has no direction; using (1, 0)."))
            return CGVector(dx: 1, dy: 0)
        }
        return CGVector(dx: CGFloat(Double(axis.dx) / length), dy: CGFloat(Double(axis.dy) / length))
    }

    // MARK: Animator hooks

    override var heldItems: [any DynamicItem] { items }

    override func attach(to animator: DynamicAnimator) {
        joint = .null
        jointBodies = (.null, .null)
        if measuresLengthOnJoining, kind == .distance || kind == .limit, !isDegenerate {
            let (c1, a1) = pose(of: items[0])
            let p1 = Self.worldPoint(local1, center: c1, angle: a1)
            let p2: CGPoint
            if attachedBehaviorType == .anchor {
                p2 = storedAnchor
            } else {
                let (c2, a2) = pose(of: items[1])
                p2 = Self.worldPoint(local2, center: c2, angle: a2)
            }
            let d = Self.distance(p1, p2)
            storedLength = d.isFinite ? min(d, 2 * maximumAnimatorCoordinate) : storedLength
        }
    }

    override func detach(from animator: DynamicAnimator) {
        if animator.world.isValid(joint) { animator.world.destroyJoint(joint) }
        joint = .null
    }

    override func syncWorld(_ animator: DynamicAnimator) {
        let world = animator.world
        let bodies: (BodyID, BodyID)?
        if isDegenerate {
            bodies = nil
        } else if attachedBehaviorType == .anchor {
            bodies = animator.record(for: items[0]).map { (animator.anchorBody, $0.body) }
        } else if let r1 = animator.record(for: items[0]), let r2 = animator.record(for: items[1]), r1.body != r2.body {
            bodies = (r1.body, r2.body)
        } else {
            bodies = nil
        }
        guard let pair = bodies else {
            if world.isValid(joint) { world.destroyJoint(joint) }
            joint = .null
            return
        }
        let (a, b) = pair
        let def = jointDef(a, b)
        checkStiffness(animator)
        if world.isValid(joint), jointBodies == (a, b), world.jointDef(joint)?.kind == def.kind {
            // Updating wakes the bodies: only when a setting changed.
            if needsJointUpdate { world.updateJoint(joint) { $0 = def } }
        } else {
            if world.isValid(joint) { world.destroyJoint(joint) }
            joint = world.createJoint(def) ?? .null
            jointBodies = (a, b)
        }
        needsJointUpdate = false
    }

    override var snapshotSignature: String { "\(kind) \(attachedBehaviorType) \(isDegenerate ? "degenerate" : "")" }

    override func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {
        writer.add(local1)
        writer.add(local2)
        writer.add(axis)
        writer.add(referenceAngle)
        writer.add(storedAnchor)
        writer.add(storedLength)
        writer.add(storedDamping)
        writer.add(storedFrequency)
        writer.add(storedFrictionTorque)
        writer.add(storedRange.lowerBound)
        writer.add(storedRange.upperBound)
        writer.add(joint)
        writer.add(jointBodies.0)
        writer.add(jointBodies.1)
        writer.add(needsJointUpdate)
    }

    override func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        let l1 = try reader.point(), l2 = try reader.point()
        let savedAxis = try reader.vector()
        let reference = try reader.finite()
        let anchor = try reader.point()
        let length = try reader.nonNegative(), damping = try reader.nonNegative()
        let frequency = try reader.nonNegative(), torque = try reader.nonNegative()
        let lower = try reader.double(), upper = try reader.double()
        guard !lower.isNaN, !upper.isNaN, lower <= upper else { throw reader.corrupt("attachmentRange \(lower)…\(upper) is not a range") }
        let savedJoint = try reader.jointID()
        let bodyA = try reader.bodyID(), bodyB = try reader.bodyID()
        let update = try reader.bool()
        // The ids may be stale (an item left the world since): they are only compared and checked
        // with `isValid`, as before the snapshot.
        return { [self] in
            local1 = l1
            local2 = l2
            axis = savedAxis
            referenceAngle = reference
            storedAnchor = anchor
            storedLength = length
            storedDamping = damping
            storedFrequency = frequency
            storedFrictionTorque = torque
            storedRange = lower...upper
            joint = savedJoint
            jointBodies = (bodyA, bodyB)
            needsJointUpdate = update
        }
    }

    /// Reports, once per frequency, a spring stiffer than the animator's sub-step resolves: above
    /// 1/(2πh) Hz (h = ``DynamicAnimator/stepDuration`` / ``DynamicAnimator/substeps``, 38 Hz by
    /// default) the engine damps the spring enough to keep it stable, so it loses energy even with
    /// ``damping`` 0 (see Attachments.md, "Stiff springs").
    private func checkStiffness(_ animator: DynamicAnimator) {
        guard storedFrequency > 0, kind == .distance || kind == .fixed else { return }
        let h = animator.stepDuration / Double(max(animator.substeps, 1))
        let limit = 1 / (2 * Double.pi * h)
        guard Double(storedFrequency) > limit else { reportedStiffFrequency = nil; return }
        guard reportedStiffFrequency != storedFrequency else { return }
        reportedStiffFrequency = storedFrequency
        let limitText = String(format: "%.1f", limit)
        report(.valueOutOfRange(property: "AttachmentBehavior.frequency"),
               "AttachmentBehavior: frequency \(storedFrequency) Hz is above \(limitText) Hz, the stiffest spring a sub-step of \(h) s resolves; the spring is damped enough to stay stable and settles quickly. Raise the animator's substeps to keep it lossless.", severity: .note)
    }

    /// A joint setting's setter: the shared `update`, which also marks the joint for updating at
    /// the next synchronisation (before the animator hears of the change) after `derived`.
    private func updateSetting<Value: Equatable>(
        _ keyPath: ReferenceWritableKeyPath<AttachmentBehavior, Value>, to value: Value, derived: () -> Void = {}
    ) {
        update(keyPath, to: value, needsSync: true) {
            derived()
            needsJointUpdate = true
        }
    }

    /// The engine joint for the current settings between bodies `a` and `b`.
    private func jointDef(_ a: BodyID, _ b: BodyID) -> JointDef {
        let anchorA = attachedBehaviorType == .anchor ? Vec2(storedAnchor) : Vec2(local1)
        let anchorB = attachedBehaviorType == .anchor ? Vec2(local1) : Vec2(local2)
        func base(_ k: JointKind) -> JointDef {
            var d = JointDef(kind: k)
            d.bodyA = a
            d.bodyB = b
            d.localAnchorA = anchorA
            d.localAnchorB = anchorB
            d.collideConnected = false
            d.referenceAngle = Float(referenceAngle)
            return d
        }
        func limits(_ range: ClosedRange<CGFloat>) -> (Bool, Float, Float) {
            let lo = range.lowerBound, hi = range.upperBound
            guard lo.isFinite || hi.isFinite else { return (false, 0, 0) }
            let big: CGFloat = 1e9
            return (true, Float(max(lo, -big)), Float(min(hi, big)))
        }
        let length = Float(storedLength)
        switch kind {
        case .distance:
            if storedFrequency > 0 {
                var d = base(.distance)
                d.length = length
                d.enableSpring = true
                d.hertz = Float(storedFrequency)
                d.dampingRatio = Float(storedDamping)
                return d
            }
            if storedLength < 1 {
                // A rod too short to have a direction is a pin.
                return base(.revolute)
            }
            var d = base(.distance)
            d.length = length
            return d
        case .limit:
            var d = base(.distance)
            d.length = length
            d.enableSpring = true
            d.hertz = 0
            d.enableLimit = true
            d.minLength = 0
            d.maxLength = max(length, 0)
            return d
        case .pin:
            var d = base(.revolute)
            if storedFrictionTorque > 0 {
                d.enableMotor = true
                d.motorSpeed = 0
                d.maxMotorTorque = Float(storedFrictionTorque * UIKitUnits.torque)
            }
            (d.enableLimit, d.lowerAngle, d.upperAngle) = limits(storedRange)
            return d
        case .sliding:
            var d = base(.prismatic)
            d.localAxisA = Vec2(axis)
            (d.enableLimit, d.lowerTranslation, d.upperTranslation) = limits(storedRange)
            return d
        case .fixed:
            var d = base(.weld)
            if storedFrequency > 0 {
                d.linearHertz = Float(storedFrequency)
                d.angularHertz = Float(storedFrequency)
                d.linearDampingRatio = Float(storedDamping)
                d.angularDampingRatio = Float(storedDamping)
            }
            return d
        }
    }
}
