import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// A small running scene to throw bad input at: a box and a ball under gravity in a 400 × 400 pt
/// box, with an item behaviour.
final class BadInputRig {
    let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
    let box = square(40, at: CGPoint(x: 100, y: 100), name: "box")
    let ball = square(30, at: CGPoint(x: 250, y: 80), name: "ball", type: .ellipse)
    let gravity: GravityBehavior
    let collision: CollisionBehavior
    let material: DynamicItemBehavior
    /// Items made by a case, checked for finiteness too.
    var extra: [any DynamicItem] = []
    /// Objects a case made that its expected diagnostic names (a stranger item, a behaviour).
    var kept: [AnyObject] = []

    init() {
        gravity = GravityBehavior(items: [box, ball])
        collision = CollisionBehavior(items: [box, ball])
        collision.translatesReferenceBoundsIntoBoundary = true
        material = DynamicItemBehavior(items: [box, ball])
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.addBehavior(material)
    }

    /// A new named item added to the collision behaviour (so it joins the world).
    func join(_ item: any DynamicItem) {
        extra.append(item)
        collision.addItem(item)
    }

    var items: [any DynamicItem] { [box, ball] + extra }

    /// Whether every item the animator holds has a finite center and transform.
    var everythingFinite: Bool {
        animator.records.allSatisfy { r in
            let all = [r.item] + r.members.map(\.item)
            return all.allSatisfy { i in
                let t = i.transform
                return i.center.x.isFinite && i.center.y.isFinite && [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite)
            }
        }
    }
}

/// One piece of bad input: what to do, the kind of diagnostic it must cause, and what must hold
/// afterwards (the last good state, or the documented fallback).
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether a diagnostic's kind is the one expected, in the rig the case ran in.
    let matches: @Sendable (DynamicsDiagnostic.Kind, BadInputRig) -> Bool
    let run: @Sendable (BadInputRig) -> Void
    let check: @Sendable (BadInputRig) -> Bool

    /// A case whose diagnostic matches `matching`.
    init(_ name: String, matching: @escaping @Sendable (DynamicsDiagnostic.Kind, BadInputRig) -> Bool,
         check: @escaping @Sendable (BadInputRig) -> Bool = { _ in true },
         _ run: @escaping @Sendable (BadInputRig) -> Void) {
        self.name = name
        self.matches = matching
        self.run = run
        self.check = check
    }

    /// A case whose diagnostic is of `kind`.
    init(_ name: String, _ kind: DynamicsDiagnostic.Kind,
         check: @escaping @Sendable (BadInputRig) -> Bool = { _ in true },
         _ run: @escaping @Sendable (BadInputRig) -> Void) {
        self.init(name, matching: { k, _ in k == kind }, check: check, run)
    }

    /// A case whose diagnostic is of the kind `kindOf` names in the rig (for kinds naming an item
    /// or behaviour the rig holds).
    init(_ name: String, kindOf: @escaping @Sendable (BadInputRig) -> DynamicsDiagnostic.Kind,
         check: @escaping @Sendable (BadInputRig) -> Bool = { _ in true },
         _ run: @escaping @Sendable (BadInputRig) -> Void) {
        self.init(name, matching: { k, rig in k == kindOf(rig) }, check: check, run)
    }

    /// Valid but extreme input: no diagnostic is expected.
    init(_ name: String, _ run: @escaping @Sendable (BadInputRig) -> Void) {
        self.init(name, matching: { _, _ in true }, run)
    }

    var testDescription: String { name }
}

private func id(_ object: AnyObject) -> ObjectIdentifier { ObjectIdentifier(object) }
private func nonFinite(_ property: String) -> DynamicsDiagnostic.Kind { .nonFiniteValue(property: property) }
private func outOfRange(_ property: String) -> DynamicsDiagnostic.Kind { .valueOutOfRange(property: property) }

private func item(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat = 20, _ h: CGFloat = 20, _ type: DynamicItemCollisionBoundsType = .rectangle) -> BasicDynamicItem {
    BasicDynamicItem(center: CGPoint(x: x, y: y), size: CGSize(width: w, height: h), collisionBoundsType: type)
}

private func pathItem(_ path: BezierPath?) -> BasicDynamicItem {
    let i = item(300, 200, 30, 30, .path)
    i.collisionBoundingPath = path
    return i
}

private func polygon(_ points: [(CGFloat, CGFloat)], closed: Bool = true) -> BezierPath {
    let p = BezierPath()
    p.move(to: CGPoint(x: points[0].0, y: points[0].1))
    for q in points.dropFirst() { p.addLine(to: CGPoint(x: q.0, y: q.1)) }
    if closed { p.close() }
    return p
}

/// Adds `f` (a radial gravity field by default) acting on the rig's items.
@discardableResult
private func field(_ rig: BadInputRig, _ f: FieldBehavior = .radialGravityField(position: CGPoint(x: 200, y: 200))) -> FieldBehavior {
    f.addItem(rig.box)
    f.addItem(rig.ball)
    rig.animator.addBehavior(f)
    return f
}

private let nanValue = CGFloat.nan
private let inf = CGFloat.infinity

@Suite("Bad input")
struct BadInputTests {
    static let animatorCases: [BadInput] = [
        BadInput("stepDuration NaN", nonFinite("DynamicAnimator.stepDuration"), check: { $0.animator.stepDuration == 1.0 / 60 }) { $0.animator.stepDuration = .nan },
        BadInput("stepDuration 0", outOfRange("DynamicAnimator.stepDuration"), check: { $0.animator.stepDuration == 1.0 / 60 }) { $0.animator.stepDuration = 0 },
        BadInput("stepDuration negative", outOfRange("DynamicAnimator.stepDuration")) {
            $0.animator.stepDuration = -1.0 / 60
        },
        BadInput("stepDuration infinite", nonFinite("DynamicAnimator.stepDuration")) {
            $0.animator.stepDuration = .infinity
        },
        BadInput("stepDuration tiny", outOfRange("DynamicAnimator.stepDuration")) { $0.animator.stepDuration = 1e-300 },
        BadInput("stepDuration huge", outOfRange("DynamicAnimator.stepDuration")) { $0.animator.stepDuration = 1e9 },
        BadInput("substeps 0", outOfRange("DynamicAnimator.substeps"), check: { $0.animator.substeps == 4 }) {
            $0.animator.substeps = 0
        },
        BadInput("substeps negative", outOfRange("DynamicAnimator.substeps")) { $0.animator.substeps = -3 },
        BadInput("substeps huge", outOfRange("DynamicAnimator.substeps")) { $0.animator.substeps = Int.max },
        BadInput("advance NaN", nonFinite("DynamicAnimator.advance(by:)"), check: { $0.animator.advance(by: .nan) == 0 }) { _ = $0.animator.advance(by: .nan) },
        BadInput("advance negative", outOfRange("DynamicAnimator.advance(by:)")) { _ = $0.animator.advance(by: -1) },
        BadInput("advance infinite", nonFinite("DynamicAnimator.advance(by:)")) {
            _ = $0.animator.advance(by: -.infinity)
        },
        BadInput("items(in:) NaN rect", nonFinite("DynamicAnimator.items(in:)")) { _ = $0.animator.items(in: CGRect(x: nanValue, y: 0, width: 1, height: 1)) },
        BadInput("items(in:) null rect", nonFinite("DynamicAnimator.items(in:)")) { _ = $0.animator.items(in: .null) },
        BadInput("updateItem of an unknown item", kindOf: { .itemNotInAnimator(item: id($0.kept[0])) }) { rig in
            let stranger = item(1, 1)
            rig.kept.append(stranger)
            rig.animator.updateItem(usingCurrentState: stranger)
        },
        BadInput("removeBehavior never added", .nothingToRemove) { $0.animator.removeBehavior(GravityBehavior()) },
        BadInput("addBehavior twice", kindOf: { .behaviorAlreadyPlaced(behavior: id($0.gravity)) }, check: { $0.animator.behaviors.count == 3 }) { $0.animator.addBehavior($0.gravity) },
        BadInput("behaviour in two animators", kindOf: { .behaviorAlreadyPlaced(behavior: id($0.gravity)) }) { rig in
            let other = DynamicAnimator()
            other.addBehavior(rig.gravity)
            rig.animator.report(other.diagnostics.last ?? DynamicsDiagnostic(message: "nothing reported"))
        },
        BadInput("a child added at the top", kindOf: { .behaviorAlreadyPlaced(behavior: id($0.kept[0])) }) { rig in
            let parent = DynamicBehavior(), child = GravityBehavior()
            rig.kept.append(child)
            parent.addChildBehavior(child)
            rig.animator.addBehavior(child)
        },
        BadInput("removeFrameObserver twice", .nothingToRemove) { rig in
            let token = rig.animator.addFrameObserver { _ in }
            rig.animator.removeFrameObserver(token)
            rig.animator.removeFrameObserver(token)
        },
        BadInput("step() inside an action", .calledDuringStep) { rig in
            rig.gravity.action = { [unowned a = rig.animator] in a.step() }
            rig.animator.step()
            rig.gravity.action = nil
        },
        BadInput("advance inside a frame observer", .calledDuringStep) { rig in
            let token = rig.animator.addFrameObserver { [unowned a = rig.animator] _ in a.advance(by: 1) }
            rig.animator.step()
            rig.animator.removeFrameObserver(token)
        },
        BadInput("restore of a foreign snapshot",
                 matching: { kind, _ in if case .snapshotRefused(.configurationMismatch) = kind { true } else { false } }) { rig in
            let other = DynamicAnimator()
            other.addBehavior(GravityBehavior(items: [item(1, 1)]))
            #expect(throws: DynamicsSnapshotError.self) { try rig.animator.restore(other.snapshot()) }
        },
        BadInput("ASCIIRenderer of a huge size", outOfRange("ASCIIRenderer.width")) { rig in
            #expect(ASCIIRenderer(width: Int.max, height: 3).lines(rig.animator).count == 3)
        },
        BadInput("ASCIIRenderer overlay at a non-finite point", nonFinite("ASCIIRenderer.overlays")) { rig in
            var r = ASCIIRenderer(width: 40, height: 12)
            let far = CGPoint(x: CGFloat.infinity, y: 20)
            r.overlays = [
                .point(CGPoint(x: nanValue, y: 50), character: "X"),
                .line(from: CGPoint(x: 10, y: 10), to: far, character: "Z"),
                .point(CGPoint(x: 200, y: 200), character: "Y"),
            ]
            let picture = r.lines(rig.animator).joined()
            // the finite mark is drawn, the others are not
            #expect(picture.contains("Y") && !picture.contains("X") && !picture.contains("Z"))
        },
    ]

    static let itemCases: [BadInput] = [
        BadInput("center NaN, then updateItem",
                 kindOf: { .unusableItemState(item: id($0.box), property: "center") }, check: { abs($0.box.center.x - 100) < 1 }) { rig in
            rig.box.center = CGPoint(x: nanValue, y: 5)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("center beyond 10⁷ pt, then updateItem", kindOf: { .unusableItemState(item: id($0.box), property: "center") }, check: { abs($0.box.center.x - 100) < 1 }) { rig in
            rig.box.center = CGPoint(x: 1e12, y: 5)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("transform NaN, then updateItem",
                 kindOf: { .unusableItemState(item: id($0.box), property: "transform") }) { rig in
            rig.box.transform = CGAffineTransform(a: nanValue, b: 1, c: 0, d: 1, tx: 0, ty: 0)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("size zero, then updateItem",
                 kindOf: { .unusableItemState(item: id($0.box), property: "bounds") }) { rig in
            rig.box.size = .zero
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("size NaN, then updateItem",
                 kindOf: { .unusableItemState(item: id($0.box), property: "bounds") }) { rig in
            rig.box.size = CGSize(width: nanValue, height: 10)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("size huge, then updateItem",
                 kindOf: { .unusableItemState(item: id($0.box), property: "bounds") }) { rig in
            rig.box.size = CGSize(width: 1e30, height: 10)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("negative size", kindOf: { .unusableItemState(item: id($0.extra[0]), property: "bounds") }, check: { $0.animator.mass(of: $0.animator.record(for: $0.extra[0])!) > 0.03 }) { rig in
            rig.join(item(300, 100, -20, 20))
        },
        BadInput("new item with a NaN center",
                 kindOf: { .unusableItemState(item: id($0.extra[0]), property: "center") }) {
            $0.join(item(nanValue, nanValue))
        },
        BadInput("new item with an infinite size",
                 kindOf: { .unusableItemState(item: id($0.extra[0]), property: "bounds") }) {
            $0.join(item(300, 100, 10, inf))
        },
        BadInput("an item in two groups", kindOf: { .groupConflict(item: id($0.kept[0])) }) { rig in
            let a = item(300, 100), b = item(330, 100), c = item(360, 100)
            rig.kept.append(b)
            rig.join(DynamicItemGroup(items: [a, b]))
            rig.join(DynamicItemGroup(items: [b, c]))
        },
        BadInput("a group member on its own too", kindOf: { .groupConflict(item: id($0.kept[0])) }) { rig in
            let a = item(300, 100), b = item(330, 100)
            rig.kept.append(a)
            rig.join(DynamicItemGroup(items: [a, b]))
            rig.gravity.addItem(a)
        },
        BadInput("a group in a group", kindOf: { .groupConflict(item: id($0.kept[0])) }) { rig in
            let inner = DynamicItemGroup(items: [item(300, 100)])
            rig.kept.append(inner)
            rig.join(DynamicItemGroup(items: [inner, item(340, 100)]))
        },
        BadInput("an empty group", kindOf: { .groupConflict(item: id($0.extra[0])) }) {
            $0.join(DynamicItemGroup(items: []))
        },
        BadInput(".path without a path", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) {
            $0.join(pathItem(nil))
        },
        BadInput(".path with an empty path", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) {
            $0.join(pathItem(BezierPath()))
        },
        BadInput("concave path", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) { rig in
            rig.join(pathItem(polygon([(-10, -10), (10, -10), (0, 0), (10, 10), (-10, 10)])))
        },
        BadInput("self-intersecting path", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) { rig in
            rig.join(pathItem(polygon([(-10, -10), (10, 10), (10, -10), (-10, 10)])))
        },
        BadInput("collinear path", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) { $0.join(pathItem(polygon([(0, 0), (5, 5), (10, 10)]))) },
        BadInput("two subpaths", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) { rig in
            var p = polygon([(-10, -10), (10, -10), (0, 10)])
            p.append(polygon([(20, 20), (30, 20), (25, 30)]))
            rig.join(pathItem(p))
        },
        BadInput("path with a NaN point", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) { $0.join(pathItem(polygon([(-10, -10), (10, -10), (nanValue, 3), (0, 10)]))) },
        BadInput("path far too large", kindOf: { .collisionShapeReplaced(item: id($0.extra[0])) }) { $0.join(pathItem(BezierPath(rect: CGRect(x: -1e7, y: -1e7, width: 2e7, height: 2e7)))) },
    ]

    static let behaviorCases: [BadInput] = [
        BadInput("gravityDirection NaN", nonFinite("GravityBehavior.gravityDirection"), check: { $0.gravity.gravityDirection == CGVector(dx: 0, dy: 1) }) { $0.gravity.gravityDirection = CGVector(dx: nanValue, dy: 1) },
        BadInput("gravity angle infinite", nonFinite("GravityBehavior.angle"), check: { $0.gravity.angle == .pi / 2 }) { $0.gravity.angle = inf },
        BadInput("gravity magnitude NaN", nonFinite("GravityBehavior.magnitude"), check: { $0.gravity.magnitude == 1 }) { $0.gravity.magnitude = nanValue },
        BadInput("gravity setAngle NaN", nonFinite("GravityBehavior.angle")) {
            $0.gravity.setAngle(nanValue, magnitude: 1)
        },
        BadInput("gravity beyond Float", kindOf: { .nonFiniteForce(item: id($0.box)) }) {
            $0.gravity.magnitude = 1e300
        },
        BadInput("push direction infinite", nonFinite("PushBehavior.pushDirection")) { rig in
            let push = PushBehavior(items: [rig.box])
            push.pushDirection = CGVector(dx: inf, dy: 0)
            rig.animator.addBehavior(push)
        },
        BadInput("push magnitude NaN", nonFinite("PushBehavior.magnitude")) { rig in
            let push = PushBehavior(items: [rig.box], mode: .instantaneous)
            rig.animator.addBehavior(push)
            push.magnitude = nanValue
        },
        BadInput("push angle NaN", nonFinite("PushBehavior.angle")) { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.setAngle(nanValue, magnitude: 1)
        },
        BadInput("push offset NaN", nonFinite("PushBehavior.targetOffsetFromCenter")) { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.setTargetOffsetFromCenter(CGPoint(x: nanValue, y: 0), for: rig.box)
        },
        BadInput("push offset beyond 10⁷ pt",
                 outOfRange("PushBehavior.targetOffsetFromCenter"), check: { _ in true }) { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.setTargetOffsetFromCenter(CGPoint(x: 1e30, y: 0), for: rig.box)
        },
        BadInput("continuous push beyond Float", kindOf: { .nonFiniteForce(item: id($0.box)) }) { rig in
            let push = PushBehavior(items: [rig.box])
            push.magnitude = 1e300
            rig.animator.addBehavior(push)
        },
        BadInput("instantaneous push beyond Float", kindOf: { .nonFiniteForce(item: id($0.box)) }) { rig in
            let push = PushBehavior(items: [rig.box], mode: .instantaneous)
            push.magnitude = 1e300
            rig.animator.addBehavior(push)
        },
        BadInput("snap to NaN", nonFinite("SnapBehavior.snapPoint")) { rig in rig.animator.addBehavior(SnapBehavior(item: rig.box, snapTo: CGPoint(x: nanValue, y: 0))) },
        BadInput("snap point beyond 10⁷ pt", outOfRange("SnapBehavior.snapPoint")) { rig in
            let snap = SnapBehavior(item: rig.box, snapTo: CGPoint(x: 200, y: 200))
            rig.animator.addBehavior(snap)
            snap.snapPoint = CGPoint(x: 0, y: -1e30)
        },
        BadInput("snap damping 2", outOfRange("SnapBehavior.damping")) { rig in
            let snap = SnapBehavior(item: rig.box, snapTo: CGPoint(x: 200, y: 200))
            snap.damping = 2
            rig.animator.addBehavior(snap)
        },
        BadInput("snap damping NaN", nonFinite("SnapBehavior.damping")) { rig in
            let snap = SnapBehavior(item: rig.box, snapTo: CGPoint(x: 200, y: 200))
            rig.animator.addBehavior(snap)
            snap.damping = nanValue
        },
        BadInput("attachment anchor NaN", nonFinite("AttachmentBehavior.anchor")) { rig in
            rig.animator.addBehavior(AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: nanValue, y: 0)))
        },
        BadInput("attachment anchor beyond 10⁷ pt", outOfRange("AttachmentBehavior.anchor")) { rig in
            rig.animator.addBehavior(AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 106, y: 1e30)))
        },
        BadInput("attachment offset infinite", nonFinite("AttachmentBehavior.offsetFromCenter")) { rig in
            rig.animator.addBehavior(AttachmentBehavior(item: rig.box, offsetFromCenter: CGPoint(x: inf, y: 0), attachedTo: rig.ball, offsetFromCenter: .zero))
        },
        BadInput("sliding axis zero", outOfRange("AttachmentBehavior.axisOfTranslation")) { rig in
            rig.animator.addBehavior(AttachmentBehavior.slidingAttachment(with: rig.box, attachmentAnchor: CGPoint(x: 100, y: 100), axisOfTranslation: .zero))
        },
        BadInput("an item attached to itself", kindOf: { .attachmentToItself(behavior: id($0.kept[0])) }) { rig in
            let attachment = AttachmentBehavior(item: rig.box, attachedTo: rig.box)
            rig.kept.append(attachment)
            rig.animator.addBehavior(attachment)
        },
        BadInput("attachment length negative", outOfRange("AttachmentBehavior.length")) { rig in
            let a = AttachmentBehavior(item: rig.box, attachedTo: rig.ball)
            rig.animator.addBehavior(a)
            a.length = -5
        },
        BadInput("attachment length beyond 10⁷ pt", outOfRange("AttachmentBehavior.length")) { rig in
            let a = AttachmentBehavior(item: rig.box, attachedTo: rig.ball)
            rig.animator.addBehavior(a)
            a.length = 1e30
        },
        BadInput("attachment damping negative", outOfRange("AttachmentBehavior.damping")) { rig in
            let a = AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 100, y: 20))
            rig.animator.addBehavior(a)
            a.damping = -1
        },
        BadInput("attachment frequency NaN", nonFinite("AttachmentBehavior.frequency")) { rig in
            let a = AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 100, y: 20))
            rig.animator.addBehavior(a)
            a.frequency = nanValue
        },
        BadInput("attachment frictionTorque negative", outOfRange("AttachmentBehavior.frictionTorque")) { rig in
            let a = AttachmentBehavior.pinAttachment(with: rig.box, attachedTo: rig.ball, attachmentAnchor: CGPoint(x: 170, y: 90))
            rig.animator.addBehavior(a)
            a.frictionTorque = -1
        },
        BadInput("attachment anchorPoint NaN", nonFinite("AttachmentBehavior.anchorPoint")) { rig in
            let a = AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 100, y: 20))
            rig.animator.addBehavior(a)
            a.anchorPoint = CGPoint(x: 0, y: nanValue)
        },
        BadInput("boundary from NaN", .unusableBoundary(identifier: "x")) { $0.collision.addBoundary(withIdentifier: "x", from: CGPoint(x: nanValue, y: 0), to: .zero) },
        BadInput("boundary of coincident points", .unusableBoundary(identifier: "x")) { $0.collision.addBoundary(withIdentifier: "x", from: .zero, to: .zero) },
        BadInput("boundary beyond 10⁷ pt", .unusableBoundary(identifier: "x")) { $0.collision.addBoundary(withIdentifier: "x", from: .zero, to: CGPoint(x: 1e30, y: 0)) },
        BadInput("boundary of an empty path", .unusableBoundary(identifier: "x")) { $0.collision.addBoundary(withIdentifier: "x", for: BezierPath()) },
        BadInput("boundary path with NaN", .unusableBoundary(identifier: "x")) { $0.collision.addBoundary(withIdentifier: "x", for: polygon([(0, 300), (nanValue, 350), (400, 300)], closed: false)) },
        BadInput("removeBoundary unknown", .nothingToRemove) { $0.collision.removeBoundary(withIdentifier: "never") },
        BadInput("insets NaN", nonFinite("CollisionBehavior.setTranslatesReferenceBoundsIntoBoundary(with:)")) { $0.collision.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: nanValue)) },
        BadInput("insets leaving no area", .referenceBoundsUnusable) { $0.collision.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: 300, bottom: 300)) },
        BadInput("insets beyond 10⁷ pt", .referenceBoundsUnusable) { $0.collision.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: -1e30)) },
        BadInput("reference boundary without reference bounds", .referenceBoundsUnusable) { rig in
            let abstract = DynamicAnimator()
            let c = CollisionBehavior(items: [item(0, 0)])
            c.translatesReferenceBoundsIntoBoundary = true
            abstract.addBehavior(c)
            abstract.step()
            rig.animator.report(abstract.diagnostics.last ?? DynamicsDiagnostic(message: "nothing reported"))
        },
        BadInput("32 collision behaviours",
                 matching: { kind, _ in if case .tooManyCollisionBehaviors = kind { true } else { false } }) { rig in
            for _ in 0..<32 { rig.animator.addBehavior(CollisionBehavior(items: [rig.box])) }
            rig.animator.step()
        },
        BadInput("gravity removeItem never added", .nothingToRemove) { $0.gravity.removeItem(item(0, 0)) },
        BadInput("push removeItem never added", .nothingToRemove) { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.removeItem(rig.ball)
        },
        BadInput("collision removeItem never added", .nothingToRemove) { $0.collision.removeItem(item(0, 0)) },
        BadInput("item behaviour removeItem never added", .nothingToRemove) { $0.material.removeItem(item(0, 0)) },
        BadInput("field removeItem never added", .nothingToRemove) { rig in
            let f = FieldBehavior.dragField()
            rig.animator.addBehavior(f)
            f.removeItem(rig.box)
        },
        BadInput("removeChildBehavior of a stranger", .nothingToRemove) { rig in
            let parent = DynamicBehavior()
            rig.animator.addBehavior(parent)
            parent.removeChildBehavior(GravityBehavior())
        },
        BadInput("a behaviour its own child", kindOf: { .behaviorCycle(behavior: id($0.kept[0])) }) { rig in
            let parent = DynamicBehavior()
            rig.kept.append(parent)
            rig.animator.addBehavior(parent)
            parent.addChildBehavior(parent)
        },
        BadInput("a cycle of behaviours", kindOf: { .behaviorCycle(behavior: id($0.kept[0])) }) { rig in
            let a = DynamicBehavior(), b = DynamicBehavior()
            rig.kept.append(a)
            a.addChildBehavior(b)
            rig.animator.addBehavior(a)
            b.addChildBehavior(a)
        },
        BadInput("a child with two parents", kindOf: { .behaviorAlreadyPlaced(behavior: id($0.kept[0])) }) { rig in
            let a = DynamicBehavior(), b = DynamicBehavior(), child = GravityBehavior()
            rig.kept.append(child)
            a.addChildBehavior(child)
            rig.animator.addBehavior(b)
            b.addChildBehavior(child)
        },
        BadInput("elasticity NaN", nonFinite("DynamicItemBehavior.elasticity"), check: { $0.material.elasticity == 0 }) { $0.material.elasticity = nanValue },
        BadInput("elasticity huge", outOfRange("DynamicItemBehavior.elasticity")) { $0.material.elasticity = 1e20 },
        BadInput("friction negative", outOfRange("DynamicItemBehavior.friction")) { $0.material.friction = -1 },
        BadInput("density zero", outOfRange("DynamicItemBehavior.density"), check: { $0.material.density == 1 }) {
            $0.material.density = 0
        },
        BadInput("density huge", outOfRange("DynamicItemBehavior.density")) { $0.material.density = 1e300 },
        BadInput("resistance infinite", nonFinite("DynamicItemBehavior.resistance")) { $0.material.resistance = inf },
        BadInput("angularResistance negative", outOfRange("DynamicItemBehavior.angularResistance")) {
            $0.material.angularResistance = -2
        },
        BadInput("charge NaN", nonFinite("DynamicItemBehavior.charge")) { $0.material.charge = nanValue },
        BadInput("linear velocity NaN", nonFinite("DynamicItemBehavior.addLinearVelocity(_:for:)")) { $0.material.addLinearVelocity(CGPoint(x: nanValue, y: 0), for: $0.box) },
        BadInput("linear velocity huge", outOfRange("DynamicItemBehavior.addLinearVelocity(_:for:)")) { $0.material.addLinearVelocity(CGPoint(x: 1e300, y: 0), for: $0.box) },
        BadInput("angular velocity infinite", nonFinite("DynamicItemBehavior.addAngularVelocity(_:for:)")) { $0.material.addAngularVelocity(-inf, for: $0.box) },
        BadInput("angular velocity huge", outOfRange("DynamicItemBehavior.addAngularVelocity(_:for:)")) { $0.material.addAngularVelocity(1e30, for: $0.box) },
    ]

    static let fieldCases: [BadInput] = {
        [
            BadInput("field position NaN", nonFinite("FieldBehavior.position")) {
                field($0).position = CGPoint(x: nanValue, y: 1)
            },
            BadInput("field position beyond 10⁷ pt", outOfRange("FieldBehavior.position")) { field($0).position = CGPoint(x: 1e9, y: 1) },
            BadInput("field strength NaN", nonFinite("FieldBehavior.strength")) { field($0).strength = nanValue },
            BadInput("field falloff infinite", nonFinite("FieldBehavior.falloff")) { field($0).falloff = inf },
            BadInput("field minimumRadius negative", outOfRange("FieldBehavior.minimumRadius")) {
                field($0).minimumRadius = -3
            },
            BadInput("field direction NaN", nonFinite("FieldBehavior.direction")) { field($0, .linearGravityField(direction: CGVector(dx: 0, dy: 1))).direction = CGVector(dx: nanValue, dy: 0) },
            BadInput("field smoothness outside 0…1", outOfRange("FieldBehavior.smoothness")) { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).smoothness = 3 },
            BadInput("field smoothness NaN", nonFinite("FieldBehavior.smoothness")) { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).smoothness = nanValue },
            BadInput("field animationSpeed huge", outOfRange("FieldBehavior.animationSpeed")) { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).animationSpeed = -1e300 },
            BadInput("field animationSpeed NaN", nonFinite("FieldBehavior.animationSpeed")) { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).animationSpeed = nanValue },
            BadInput("radial field at NaN", nonFinite("FieldBehavior.position")) { _ = field($0, .radialGravityField(position: CGPoint(x: nanValue, y: nanValue))) },
            BadInput("linear field direction infinite", nonFinite("FieldBehavior.direction")) { _ = field($0, .linearGravityField(direction: CGVector(dx: inf, dy: 0))) },
            BadInput("velocity field direction NaN", nonFinite("FieldBehavior.direction")) { _ = field($0, .velocityField(direction: CGVector(dx: 0, dy: nanValue))) },
            BadInput("noise field smoothness NaN", nonFinite("FieldBehavior.smoothness")) { _ = field($0, .noiseField(smoothness: nanValue, animationSpeed: 1)) },
            BadInput("turbulence field animationSpeed infinite", nonFinite("FieldBehavior.animationSpeed")) { _ = field($0, .turbulenceField(smoothness: 0.2, animationSpeed: inf)) },
            BadInput("field strength beyond any acceleration", kindOf: { .nonFiniteForce(item: id($0.box)) }) { field($0, .linearGravityField(direction: CGVector(dx: 0, dy: 1))).strength = 1e300 },
            BadInput("field block returning NaN", kindOf: { .nonFiniteForce(item: id($0.box)) }) { _ = field($0, .field { _, _, _, _, _, _ in CGVector(dx: CGFloat.nan, dy: 0) }) },
            BadInput("field block returning infinity", kindOf: { .nonFiniteForce(item: id($0.box)) }) { _ = field($0, .field { _, _, _, _, _, _ in CGVector(dx: 0, dy: -CGFloat.infinity) }) },
            BadInput("field block returning a huge force", kindOf: { .nonFiniteForce(item: id($0.box)) }) { _ = field($0, .field { _, _, _, m, _, _ in CGVector(dx: 1e300 * m, dy: 0) }) },
        ]
    }()

    /// Runs a case: the call is reported (with the kind the case names), the step afterwards
    /// keeps every item finite, the engine's validation walk passes, and the case's own check holds.
    func run(_ c: BadInput) {
        let rig = BadInputRig()
        rig.animator.advance(by: 0.1)
        let before = rig.animator.diagnostics.count
        c.run(rig)
        rig.animator.advance(by: 0.5)
        let new = rig.animator.diagnostics.dropFirst(before)
        #expect(new.contains { c.matches($0.kind, rig) },
                "\(c.name): not the expected kind among \(new.map { "\($0.kind): \($0.message)" })")
        #expect(!new.contains { $0.kind == .other }, "\(c.name): the library reported a diagnostic without a kind")
        #expect(c.check(rig), "\(c.name): the last good state was not kept")
        #expect(rig.everythingFinite, "\(c.name): a non-finite value reached an item")
        #expect(rig.animator.world.validate().isEmpty, "\(c.name): \(rig.animator.world.validate())")
        #expect(rig.animator.world.validationErrors.isEmpty)
    }

    @Test(arguments: animatorCases) func animatorInput(_ c: BadInput) { run(c) }
    @Test(arguments: itemCases) func itemInput(_ c: BadInput) { run(c) }
    @Test(arguments: behaviorCases) func behaviorInput(_ c: BadInput) { run(c) }
    @Test(arguments: fieldCases) func fieldInput(_ c: BadInput) { run(c) }

    @Test func hugeAdvanceRunsAtMostTheCapAndDropsTheRest() {
        let animator = DynamicAnimator()
        animator.stepDuration = 1
        animator.interpolatesItems = false   // whole steps only, so a carried-over rest would show
        let steps = animator.advance(by: 1e12)
        #expect(steps == DynamicAnimator.maximumStepsPerAdvance)
        #expect(animator.diagnostics.last?.kind == .valueOutOfRange(property: "DynamicAnimator.advance(by:)"))
        #expect(animator.advance(by: 0.5) == 0)   // the rest was dropped, not carried over
    }

    @Test func diagnosticsOfAnObjectOutsideAnAnimatorArriveWhenItJoins() {
        let snap = SnapBehavior(item: item(10, 10), snapTo: CGPoint(x: nanValue, y: 0))
        let animator = DynamicAnimator()
        #expect(animator.diagnostics.isEmpty)
        animator.addBehavior(snap)
        #expect(animator.diagnostics.map(\.kind) == [.nonFiniteValue(property: "SnapBehavior.snapPoint")])
    }

    /// Values that are valid but extreme (finite, in range): no diagnostic is needed, but the world
    /// stays finite.
    static let extremeCases: [BadInput] = [
        BadInput("stiff spring") { rig in
            let a = AttachmentBehavior(item: rig.box, attachedTo: rig.ball)
            a.frequency = 1e30
            a.damping = 1e30
            rig.animator.addBehavior(a)
        },
        BadInput("huge friction torque") { rig in
            let a = AttachmentBehavior.pinAttachment(with: rig.box, attachedTo: rig.ball, attachmentAnchor: CGPoint(x: 170, y: 90))
            a.frictionTorque = 1e300
            a.attachmentRange = -1e300...1e300
            rig.animator.addBehavior(a)
        },
        BadInput("huge velocity") { rig in rig.material.addLinearVelocity(CGPoint(x: 9e6, y: -9e6), for: rig.box) },
        BadInput("huge density and elasticity") { rig in rig.material.density = 1e12; rig.material.elasticity = 1e12 },
        BadInput("huge gravity") { rig in rig.gravity.magnitude = 1e30 },
        BadInput("huge item") { rig in rig.join(item(200, 200, 1e6, 1e6)) },
        BadInput("far item") { rig in rig.join(item(9e6, -9e6)) },
        BadInput("huge region and strength") { rig in
            let f = FieldBehavior.vortexField()
            f.strength = 1e9
            f.falloff = -30
            f.region = Region(radius: 1e300)
            f.addItem(rig.box)
            rig.animator.addBehavior(f)
        },
    ]

    @Test(arguments: extremeCases) func extremeButValidValuesStayFinite(_ c: BadInput) {
        let rig = BadInputRig()
        c.run(rig)
        for _ in 0..<120 { rig.animator.step() }
        #expect(rig.everythingFinite, "\(c.name)")
        #expect(rig.animator.world.validate().isEmpty, "\(c.name): \(rig.animator.world.validate())")
    }

    /// The types without an animator to report to use their documented fallbacks.
    @Test func standaloneTypesUseTheirFallbacks() throws {
        #expect(DisplayLink(preferredFramesPerSecond: -5).framesPerSecond == 60)
        #expect(DisplayLink(preferredFramesPerSecond: Int.max).framesPerSecond == 1000)
        let link = DisplayLink()
        #expect(!link.tick(at: .nan))
        #expect(!link.tick(at: -1))
        #expect(link.tick(at: 1))
        #expect(!link.tick(at: 0.5))   // not later than the last frame
        #expect(throws: (any Error).self) { try CSVFrameWriter(path: "/nonexistent-directory/x/frames.csv") }
        #expect(!Region(radius: .nan).contains(.zero))
        #expect(!Region(radius: -1).contains(.zero))
        #expect(!Region(size: CGSize(width: nanValue, height: 1)).contains(.zero))
        #expect(!Region.infinite.contains(CGPoint(x: nanValue, y: 0)))
        #expect(BezierPath(rect: CGRect(x: nanValue, y: 0, width: 1, height: 1)).isEmpty)
        let arc = BezierPath()
        arc.addArc(withCenter: .zero, radius: .nan, startAngle: 0, endAngle: 1, clockwise: true)
        #expect(arc.isEmpty)
        let line = BezierPath()
        line.addLine(to: CGPoint(x: 1, y: 1))   // no current point: ignored
        #expect(line.isEmpty)
        let r = ASCIIRenderer(width: -4, height: -2)
        #expect(r.lines(DynamicAnimator()).isEmpty)
    }
}
