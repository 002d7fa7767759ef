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

/// One piece of bad input: what to do, the words the diagnostic must contain, and what must hold
/// afterwards (the last good state, or the documented fallback).
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let expect: String
    let run: @Sendable (BadInputRig) -> Void
    let check: @Sendable (BadInputRig) -> Bool

    init(_ name: String, _ expect: String, check: @escaping @Sendable (BadInputRig) -> Bool = { _ in true },
         _ run: @escaping @Sendable (BadInputRig) -> Void) {
        self.name = name
        self.expect = expect
        self.run = run
        self.check = check
    }

    var testDescription: String { name }
}

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
        BadInput("stepDuration NaN", "stepDuration cannot be", check: { $0.animator.stepDuration == 1.0 / 60 }) { $0.animator.stepDuration = .nan },
        BadInput("stepDuration 0", "stepDuration cannot be", check: { $0.animator.stepDuration == 1.0 / 60 }) { $0.animator.stepDuration = 0 },
        BadInput("stepDuration negative", "stepDuration cannot be") { $0.animator.stepDuration = -1.0 / 60 },
        BadInput("stepDuration infinite", "stepDuration cannot be") { $0.animator.stepDuration = .infinity },
        BadInput("stepDuration tiny", "stepDuration cannot be") { $0.animator.stepDuration = 1e-300 },
        BadInput("stepDuration huge", "stepDuration cannot be") { $0.animator.stepDuration = 1e9 },
        BadInput("substeps 0", "substeps cannot be", check: { $0.animator.substeps == 4 }) { $0.animator.substeps = 0 },
        BadInput("substeps negative", "substeps cannot be") { $0.animator.substeps = -3 },
        BadInput("substeps huge", "substeps cannot be") { $0.animator.substeps = Int.max },
        BadInput("advance NaN", "advance(by:) needs", check: { $0.animator.advance(by: .nan) == 0 }) { _ = $0.animator.advance(by: .nan) },
        BadInput("advance negative", "advance(by:) needs") { _ = $0.animator.advance(by: -1) },
        BadInput("advance infinite", "advance(by:) needs") { _ = $0.animator.advance(by: -.infinity) },
        BadInput("items(in:) NaN rect", "items(in:) needs a finite rectangle") { _ = $0.animator.items(in: CGRect(x: nanValue, y: 0, width: 1, height: 1)) },
        BadInput("items(in:) null rect", "items(in:) needs a finite rectangle") { _ = $0.animator.items(in: .null) },
        BadInput("updateItem of an unknown item", "is not in this animator") { $0.animator.updateItem(usingCurrentState: item(1, 1)) },
        BadInput("removeBehavior never added", "is not a top-level behaviour") { $0.animator.removeBehavior(GravityBehavior()) },
        BadInput("addBehavior twice", "already in this animator", check: { $0.animator.behaviors.count == 3 }) { $0.animator.addBehavior($0.gravity) },
        BadInput("behaviour in two animators", "belongs to another animator") { rig in
            let other = DynamicAnimator()
            other.addBehavior(rig.gravity)
            rig.animator.report(other.diagnostics.last?.message ?? "nothing reported")
        },
        BadInput("a child added at the top", "child of another behaviour") { rig in
            let parent = DynamicBehavior(), child = GravityBehavior()
            parent.addChildBehavior(child)
            rig.animator.addBehavior(child)
        },
        BadInput("removeFrameObserver twice", "no frame observer has this token") { rig in
            let token = rig.animator.addFrameObserver { _ in }
            rig.animator.removeFrameObserver(token)
            rig.animator.removeFrameObserver(token)
        },
        BadInput("step() inside an action", "step() was called during") { rig in
            rig.gravity.action = { [unowned a = rig.animator] in a.step() }
            rig.animator.step()
            rig.gravity.action = nil
        },
        BadInput("advance inside a frame observer", "advance(by:) was called during") { rig in
            let token = rig.animator.addFrameObserver { [unowned a = rig.animator] _ in a.advance(by: 1) }
            rig.animator.step()
            rig.animator.removeFrameObserver(token)
        },
        BadInput("restore of a foreign snapshot", "does not fit") { rig in
            let other = DynamicAnimator()
            other.addBehavior(GravityBehavior(items: [item(1, 1)]))
            #expect(throws: DynamicsSnapshotError.self) { try rig.animator.restore(other.snapshot()) }
        },
        BadInput("ASCIIRenderer of a huge size", "too large") { rig in
            #expect(ASCIIRenderer(width: Int.max, height: 3).lines(rig.animator).count == 3)
        },
    ]

    static let itemCases: [BadInput] = [
        BadInput("center NaN, then updateItem", "non-finite center", check: { abs($0.box.center.x - 100) < 1 }) { rig in
            rig.box.center = CGPoint(x: nanValue, y: 5)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("center beyond 10⁷ pt, then updateItem", "beyond 10⁷ pt", check: { abs($0.box.center.x - 100) < 1 }) { rig in
            rig.box.center = CGPoint(x: 1e12, y: 5)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("transform NaN, then updateItem", "non-finite transform") { rig in
            rig.box.transform = CGAffineTransform(a: nanValue, b: 1, c: 0, d: 1, tx: 0, ty: 0)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("size zero, then updateItem", "using 1.0 pt") { rig in
            rig.box.size = .zero
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("size NaN, then updateItem", "non-finite width") { rig in
            rig.box.size = CGSize(width: nanValue, height: 10)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("size huge, then updateItem", "using 1000000.0 pt") { rig in
            rig.box.size = CGSize(width: 1e30, height: 10)
            rig.animator.updateItem(usingCurrentState: rig.box)
        },
        BadInput("negative size", "negative width", check: { $0.animator.mass(of: $0.animator.record(for: $0.extra[0])!) > 0.03 }) { rig in
            rig.join(item(300, 100, -20, 20))
        },
        BadInput("new item with a NaN center", "non-finite center") { $0.join(item(nanValue, nanValue)) },
        BadInput("new item with an infinite size", "non-finite height") { $0.join(item(300, 100, 10, inf)) },
        BadInput("an item in two groups", "in two groups") { rig in
            let a = item(300, 100), b = item(330, 100), c = item(360, 100)
            rig.join(DynamicItemGroup(items: [a, b]))
            rig.join(DynamicItemGroup(items: [b, c]))
        },
        BadInput("a group member on its own too", "moves with its group only") { rig in
            let a = item(300, 100), b = item(330, 100)
            rig.join(DynamicItemGroup(items: [a, b]))
            rig.gravity.addItem(a)
        },
        BadInput("a group in a group", "cannot nest") { rig in
            let inner = DynamicItemGroup(items: [item(300, 100)])
            rig.join(DynamicItemGroup(items: [inner, item(340, 100)]))
        },
        BadInput("an empty group", "no usable members") { $0.join(DynamicItemGroup(items: [])) },
        BadInput(".path without a path", "no collisionBoundingPath") { $0.join(pathItem(nil)) },
        BadInput(".path with an empty path", "no collisionBoundingPath") { $0.join(pathItem(BezierPath())) },
        BadInput("concave path", "concave collisionBoundingPath") { rig in
            rig.join(pathItem(polygon([(-10, -10), (10, -10), (0, 0), (10, 10), (-10, 10)])))
        },
        BadInput("self-intersecting path", "self-intersecting collisionBoundingPath") { rig in
            rig.join(pathItem(polygon([(-10, -10), (10, 10), (10, -10), (-10, 10)])))
        },
        BadInput("collinear path", "degenerate collisionBoundingPath") { $0.join(pathItem(polygon([(0, 0), (5, 5), (10, 10)]))) },
        BadInput("two subpaths", "2 subpaths") { rig in
            var p = polygon([(-10, -10), (10, -10), (0, 10)])
            p.append(polygon([(20, 20), (30, 20), (25, 30)]))
            rig.join(pathItem(p))
        },
        BadInput("path with a NaN point", "non-finite points") { $0.join(pathItem(polygon([(-10, -10), (10, -10), (nanValue, 3), (0, 10)]))) },
        BadInput("path far too large", "reaching beyond") { $0.join(pathItem(BezierPath(rect: CGRect(x: -1e7, y: -1e7, width: 2e7, height: 2e7)))) },
    ]

    static let behaviorCases: [BadInput] = [
        BadInput("gravityDirection NaN", "gravityDirection cannot be", check: { $0.gravity.gravityDirection == CGVector(dx: 0, dy: 1) }) { $0.gravity.gravityDirection = CGVector(dx: nanValue, dy: 1) },
        BadInput("gravity angle infinite", "angle cannot be", check: { $0.gravity.angle == .pi / 2 }) { $0.gravity.angle = inf },
        BadInput("gravity magnitude NaN", "magnitude cannot be", check: { $0.gravity.magnitude == 1 }) { $0.gravity.magnitude = nanValue },
        BadInput("gravity setAngle NaN", "angle cannot be") { $0.gravity.setAngle(nanValue, magnitude: 1) },
        BadInput("gravity beyond Float", "non-finite force") { $0.gravity.magnitude = 1e300 },
        BadInput("push direction infinite", "pushDirection cannot be") { rig in
            let push = PushBehavior(items: [rig.box])
            push.pushDirection = CGVector(dx: inf, dy: 0)
            rig.animator.addBehavior(push)
        },
        BadInput("push magnitude NaN", "magnitude cannot be") { rig in
            let push = PushBehavior(items: [rig.box], mode: .instantaneous)
            rig.animator.addBehavior(push)
            push.magnitude = nanValue
        },
        BadInput("push angle NaN", "angle cannot be") { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.setAngle(nanValue, magnitude: 1)
        },
        BadInput("push offset NaN", "targetOffsetFromCenter cannot be") { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.setTargetOffsetFromCenter(CGPoint(x: nanValue, y: 0), for: rig.box)
        },
        BadInput("push offset beyond 10⁷ pt", "targetOffsetFromCenter cannot be", check: { _ in true }) { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.setTargetOffsetFromCenter(CGPoint(x: 1e30, y: 0), for: rig.box)
        },
        BadInput("continuous push beyond Float", "non-finite force") { rig in
            let push = PushBehavior(items: [rig.box])
            push.magnitude = 1e300
            rig.animator.addBehavior(push)
        },
        BadInput("instantaneous push beyond Float", "non-finite impulse") { rig in
            let push = PushBehavior(items: [rig.box], mode: .instantaneous)
            push.magnitude = 1e300
            rig.animator.addBehavior(push)
        },
        BadInput("snap to NaN", "cannot snap to") { rig in rig.animator.addBehavior(SnapBehavior(item: rig.box, snapTo: CGPoint(x: nanValue, y: 0))) },
        BadInput("snap point beyond 10⁷ pt", "snapPoint cannot be") { rig in
            let snap = SnapBehavior(item: rig.box, snapTo: CGPoint(x: 200, y: 200))
            rig.animator.addBehavior(snap)
            snap.snapPoint = CGPoint(x: 0, y: -1e30)
        },
        BadInput("snap damping 2", "damping must be in 0…1") { rig in
            let snap = SnapBehavior(item: rig.box, snapTo: CGPoint(x: 200, y: 200))
            snap.damping = 2
            rig.animator.addBehavior(snap)
        },
        BadInput("snap damping NaN", "damping must be in 0…1") { rig in
            let snap = SnapBehavior(item: rig.box, snapTo: CGPoint(x: 200, y: 200))
            rig.animator.addBehavior(snap)
            snap.damping = nanValue
        },
        BadInput("attachment anchor NaN", "is not finite") { rig in
            rig.animator.addBehavior(AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: nanValue, y: 0)))
        },
        BadInput("attachment anchor beyond 10⁷ pt", "beyond ±10⁷ pt") { rig in
            rig.animator.addBehavior(AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 106, y: 1e30)))
        },
        BadInput("attachment offset infinite", "offsetFromCenter") { rig in
            rig.animator.addBehavior(AttachmentBehavior(item: rig.box, offsetFromCenter: CGPoint(x: inf, y: 0), attachedTo: rig.ball, offsetFromCenter: .zero))
        },
        BadInput("sliding axis zero", "has no direction") { rig in
            rig.animator.addBehavior(AttachmentBehavior.slidingAttachment(with: rig.box, attachmentAnchor: CGPoint(x: 100, y: 100), axisOfTranslation: .zero))
        },
        BadInput("an item attached to itself", "attached to itself") { rig in
            rig.animator.addBehavior(AttachmentBehavior(item: rig.box, attachedTo: rig.box))
        },
        BadInput("attachment length negative", "length cannot be") { rig in
            let a = AttachmentBehavior(item: rig.box, attachedTo: rig.ball)
            rig.animator.addBehavior(a)
            a.length = -5
        },
        BadInput("attachment length beyond 10⁷ pt", "length cannot be") { rig in
            let a = AttachmentBehavior(item: rig.box, attachedTo: rig.ball)
            rig.animator.addBehavior(a)
            a.length = 1e30
        },
        BadInput("attachment damping negative", "damping cannot be") { rig in
            let a = AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 100, y: 20))
            rig.animator.addBehavior(a)
            a.damping = -1
        },
        BadInput("attachment frequency NaN", "frequency cannot be") { rig in
            let a = AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 100, y: 20))
            rig.animator.addBehavior(a)
            a.frequency = nanValue
        },
        BadInput("attachment frictionTorque negative", "frictionTorque cannot be") { rig in
            let a = AttachmentBehavior.pinAttachment(with: rig.box, attachedTo: rig.ball, attachmentAnchor: CGPoint(x: 170, y: 90))
            rig.animator.addBehavior(a)
            a.frictionTorque = -1
        },
        BadInput("attachment anchorPoint NaN", "anchorPoint cannot be") { rig in
            let a = AttachmentBehavior(item: rig.box, attachedToAnchor: CGPoint(x: 100, y: 20))
            rig.animator.addBehavior(a)
            a.anchorPoint = CGPoint(x: 0, y: nanValue)
        },
        BadInput("boundary from NaN", "needs two distinct finite points") { $0.collision.addBoundary(withIdentifier: "x", from: CGPoint(x: nanValue, y: 0), to: .zero) },
        BadInput("boundary of coincident points", "needs two distinct finite points") { $0.collision.addBoundary(withIdentifier: "x", from: .zero, to: .zero) },
        BadInput("boundary beyond 10⁷ pt", "needs two distinct finite points") { $0.collision.addBoundary(withIdentifier: "x", from: .zero, to: CGPoint(x: 1e30, y: 0)) },
        BadInput("boundary of an empty path", "draws no segment") { $0.collision.addBoundary(withIdentifier: "x", for: BezierPath()) },
        BadInput("boundary path with NaN", "non-finite point") { $0.collision.addBoundary(withIdentifier: "x", for: polygon([(0, 300), (nanValue, 350), (400, 300)], closed: false)) },
        BadInput("removeBoundary unknown", "no boundary has this identifier") { $0.collision.removeBoundary(withIdentifier: "never") },
        BadInput("insets NaN", "insets must be finite") { $0.collision.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: nanValue)) },
        BadInput("insets leaving no area", "leave no area") { $0.collision.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: 300, bottom: 300)) },
        BadInput("insets beyond 10⁷ pt", "beyond ±10⁷ pt") { $0.collision.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: -1e30)) },
        BadInput("reference boundary without reference bounds", "needs an animator with reference bounds") { rig in
            let abstract = DynamicAnimator()
            let c = CollisionBehavior(items: [item(0, 0)])
            c.translatesReferenceBoundsIntoBoundary = true
            abstract.addBehavior(c)
            abstract.step()
            rig.animator.report(abstract.diagnostics.last?.message ?? "nothing reported")
        },
        BadInput("32 collision behaviours", "at most 31") { rig in
            for _ in 0..<32 { rig.animator.addBehavior(CollisionBehavior(items: [rig.box])) }
            rig.animator.step()
        },
        BadInput("gravity removeItem never added", "is not one of its items") { $0.gravity.removeItem(item(0, 0)) },
        BadInput("push removeItem never added", "is not one of its items") { rig in
            let push = PushBehavior(items: [rig.box])
            rig.animator.addBehavior(push)
            push.removeItem(rig.ball)
        },
        BadInput("collision removeItem never added", "is not one of its items") { $0.collision.removeItem(item(0, 0)) },
        BadInput("item behaviour removeItem never added", "is not one of its items") { $0.material.removeItem(item(0, 0)) },
        BadInput("field removeItem never added", "is not one of its items") { rig in
            let f = FieldBehavior.dragField()
            rig.animator.addBehavior(f)
            f.removeItem(rig.box)
        },
        BadInput("removeChildBehavior of a stranger", "is not a child") { rig in
            let parent = DynamicBehavior()
            rig.animator.addBehavior(parent)
            parent.removeChildBehavior(GravityBehavior())
        },
        BadInput("a behaviour its own child", "its own child") { rig in
            let parent = DynamicBehavior()
            rig.animator.addBehavior(parent)
            parent.addChildBehavior(parent)
        },
        BadInput("a cycle of behaviours", "a cycle") { rig in
            let a = DynamicBehavior(), b = DynamicBehavior()
            a.addChildBehavior(b)
            rig.animator.addBehavior(a)
            b.addChildBehavior(a)
        },
        BadInput("a child with two parents", "already has a parent") { rig in
            let a = DynamicBehavior(), b = DynamicBehavior(), child = GravityBehavior()
            a.addChildBehavior(child)
            rig.animator.addBehavior(b)
            b.addChildBehavior(child)
        },
        BadInput("elasticity NaN", "elasticity cannot be", check: { $0.material.elasticity == 0 }) { $0.material.elasticity = nanValue },
        BadInput("elasticity huge", "elasticity cannot be") { $0.material.elasticity = 1e20 },
        BadInput("friction negative", "friction cannot be") { $0.material.friction = -1 },
        BadInput("density zero", "density must be", check: { $0.material.density == 1 }) { $0.material.density = 0 },
        BadInput("density huge", "density must be") { $0.material.density = 1e300 },
        BadInput("resistance infinite", "resistance cannot be") { $0.material.resistance = inf },
        BadInput("angularResistance negative", "angularResistance cannot be") { $0.material.angularResistance = -2 },
        BadInput("charge NaN", "charge cannot be") { $0.material.charge = nanValue },
        BadInput("linear velocity NaN", "addLinearVelocity cannot be") { $0.material.addLinearVelocity(CGPoint(x: nanValue, y: 0), for: $0.box) },
        BadInput("linear velocity huge", "addLinearVelocity cannot be") { $0.material.addLinearVelocity(CGPoint(x: 1e300, y: 0), for: $0.box) },
        BadInput("angular velocity infinite", "addAngularVelocity cannot be") { $0.material.addAngularVelocity(-inf, for: $0.box) },
        BadInput("angular velocity huge", "addAngularVelocity cannot be") { $0.material.addAngularVelocity(1e30, for: $0.box) },
    ]

    static let fieldCases: [BadInput] = {
        [
            BadInput("field position NaN", "position cannot be") { field($0).position = CGPoint(x: nanValue, y: 1) },
            BadInput("field position beyond 10⁷ pt", "position cannot be") { field($0).position = CGPoint(x: 1e9, y: 1) },
            BadInput("field strength NaN", "strength cannot be") { field($0).strength = nanValue },
            BadInput("field falloff infinite", "falloff cannot be") { field($0).falloff = inf },
            BadInput("field minimumRadius negative", "minimumRadius cannot be") { field($0).minimumRadius = -3 },
            BadInput("field direction NaN", "direction cannot be") { field($0, .linearGravityField(direction: CGVector(dx: 0, dy: 1))).direction = CGVector(dx: nanValue, dy: 0) },
            BadInput("field smoothness outside 0…1", "smoothness must be in 0…1") { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).smoothness = 3 },
            BadInput("field smoothness NaN", "smoothness cannot be") { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).smoothness = nanValue },
            BadInput("field animationSpeed huge", "animationSpeed cannot be") { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).animationSpeed = -1e300 },
            BadInput("field animationSpeed NaN", "animationSpeed cannot be") { field($0, .noiseField(smoothness: 0.5, animationSpeed: 1)).animationSpeed = nanValue },
            BadInput("radial field at NaN", "position cannot be") { _ = field($0, .radialGravityField(position: CGPoint(x: nanValue, y: nanValue))) },
            BadInput("linear field direction infinite", "direction cannot be") { _ = field($0, .linearGravityField(direction: CGVector(dx: inf, dy: 0))) },
            BadInput("velocity field direction NaN", "direction cannot be") { _ = field($0, .velocityField(direction: CGVector(dx: 0, dy: nanValue))) },
            BadInput("noise field smoothness NaN", "smoothness cannot be") { _ = field($0, .noiseField(smoothness: nanValue, animationSpeed: 1)) },
            BadInput("turbulence field animationSpeed infinite", "animationSpeed cannot be") { _ = field($0, .turbulenceField(smoothness: 0.2, animationSpeed: inf)) },
            BadInput("field strength beyond any acceleration", "too large acceleration") { field($0, .linearGravityField(direction: CGVector(dx: 0, dy: 1))).strength = 1e300 },
            BadInput("field block returning NaN", "non-finite or too large force") { _ = field($0, .field { _, _, _, _, _, _ in CGVector(dx: CGFloat.nan, dy: 0) }) },
            BadInput("field block returning infinity", "non-finite or too large force") { _ = field($0, .field { _, _, _, _, _, _ in CGVector(dx: 0, dy: -CGFloat.infinity) }) },
            BadInput("field block returning a huge force", "non-finite or too large force") { _ = field($0, .field { _, _, _, m, _, _ in CGVector(dx: 1e300 * m, dy: 0) }) },
        ]
    }()

    /// Runs a case: the call is reported (with the words the case names), the step afterwards
    /// keeps every item finite, the engine's validation walk passes, and the case's own check holds.
    func run(_ c: BadInput) {
        let rig = BadInputRig()
        rig.animator.advance(by: 0.1)
        let before = rig.animator.diagnostics.count
        c.run(rig)
        rig.animator.advance(by: 0.5)
        let new = rig.animator.diagnostics.dropFirst(before).map(\.message)
        #expect(new.contains { $0.contains(c.expect) }, "\(c.name): expected a diagnostic with \"\(c.expect)\", got \(new)")
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
        #expect(animator.diagnostics.last?.message.contains("asks for") == true)
        #expect(animator.advance(by: 0.5) == 0)   // the rest was dropped, not carried over
    }

    @Test func diagnosticsOfAnObjectOutsideAnAnimatorArriveWhenItJoins() {
        let snap = SnapBehavior(item: item(10, 10), snapTo: CGPoint(x: nanValue, y: 0))
        let animator = DynamicAnimator()
        #expect(animator.diagnostics.isEmpty)
        animator.addBehavior(snap)
        #expect(animator.diagnostics.contains { $0.message.contains("cannot snap to") })
    }

    /// Values that are valid but extreme (finite, in range): no diagnostic is needed, but the world
    /// stays finite.
    static let extremeCases: [BadInput] = [
        BadInput("stiff spring", "") { rig in
            let a = AttachmentBehavior(item: rig.box, attachedTo: rig.ball)
            a.frequency = 1e30
            a.damping = 1e30
            rig.animator.addBehavior(a)
        },
        BadInput("huge friction torque", "") { rig in
            let a = AttachmentBehavior.pinAttachment(with: rig.box, attachedTo: rig.ball, attachmentAnchor: CGPoint(x: 170, y: 90))
            a.frictionTorque = 1e300
            a.attachmentRange = -1e300...1e300
            rig.animator.addBehavior(a)
        },
        BadInput("huge velocity", "") { rig in rig.material.addLinearVelocity(CGPoint(x: 9e6, y: -9e6), for: rig.box) },
        BadInput("huge density and elasticity", "") { rig in rig.material.density = 1e12; rig.material.elasticity = 1e12 },
        BadInput("huge gravity", "") { rig in rig.gravity.magnitude = 1e30 },
        BadInput("huge item", "") { rig in rig.join(item(200, 200, 1e6, 1e6)) },
        BadInput("far item", "") { rig in rig.join(item(9e6, -9e6)) },
        BadInput("huge region and strength", "") { rig in
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
