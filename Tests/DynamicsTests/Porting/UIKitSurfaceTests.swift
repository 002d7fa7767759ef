// The "delete UI" surface: UIKit's own spellings compile and do what they do on iOS.
//
// This file imports only `Dynamics` and `Testing`: `import Dynamics` alone must bring CGPoint,
// CGRect, CGSize, CGFloat, CGVector, TimeInterval and NSCopying, as `import UIKit` does.
import Dynamics
import Testing

private let screen = CGRect(x: 0, y: 0, width: 320, height: 480)

/// The string an identifier was made from. UIKit code writes `identifier as? String`; that works
/// here too, but on Linux the compiler wrongly warns that the cast always fails (Foundation bridges
/// NSString to String at run time there), so the test goes through `Any`.
private func text(_ identifier: NSCopying?) -> String? { (identifier as Any) as? String }

/// A delegate written exactly as UIKit samples write it, minus `UI`: `NSCopying?` identifiers.
private final class UIKitStyleListener: CollisionBehaviorDelegate {
    var began: [(id: NSCopying?, p: CGPoint)] = []
    var ended: [NSCopying?] = []
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
        began.append((identifier, p))
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?) {
        ended.append(identifier)
    }
}

/// The Swift spelling: `AnyHashable?` identifiers.
private final class SwiftStyleListener: CollisionBehaviorDelegate {
    var began: [AnyHashable?] = []
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) {
        began.append(identifier)
    }
}

/// A box dropped onto a shelf named `shelf` at y = 200, beside a wall named `wall`, inside the screen.
private func shelfScene(shelf: (CollisionBehavior) -> Void) -> (DynamicAnimator, CollisionBehavior, BasicDynamicItem) {
    let animator = DynamicAnimator(referenceBounds: screen)
    let box = BasicDynamicItem(center: CGPoint(x: 100, y: 150), size: CGSize(width: 40, height: 40))
    let collision = CollisionBehavior(items: [box])
    collision.translatesReferenceBoundsIntoBoundary = true
    shelf(collision)
    animator.addBehavior(GravityBehavior(items: [box]))
    animator.addBehavior(collision)
    return (animator, collision, box)
}

@Suite("UIKit surface")
struct UIKitSurfaceTests {
    @Test func importDynamicsAloneRunsTheReadmeExample() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let box = BasicDynamicItem(center: CGPoint(x: 160, y: 40), size: CGSize(width: 40, height: 40), name: "box")
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(collision)
        let vector: CGVector = CGVector(dx: 0, dy: 1)
        let duration: TimeInterval = 2
        animator.advance(by: duration * Double(vector.dy))
        // Resting on the floor: its bottom edge (center + 20 pt) on y = 480.
        #expect(abs(box.center.y - 460) < 0.5)
        #expect(abs(box.center.x - 160) < 0.01)
    }

    @Test func uikitSpelledDelegateReceivesTheIdentifierObjectItWasGiven() throws {
        let listener = UIKitStyleListener()
        let barrier = "barrier" as NSCopying
        let (animator, _, _) = shelfScene { collision in
            collision.addBoundary(withIdentifier: barrier, from: CGPoint(x: 0, y: 200), to: CGPoint(x: 320, y: 200))
            collision.collisionDelegate = listener
        }
        animator.advance(by: 1)
        let first = try #require(listener.began.first)
        // The very object given, as UIKit hands it back; it reads as the string it was made from.
        #expect(first.id as AnyObject === barrier as AnyObject)
        #expect(text(first.id) == "barrier")
        // The box (40 pt, center x 100) lands on the shelf at y = 200.
        #expect(abs(first.p.y - 200) < 0.5)
        #expect(first.p.x > 80 - 0.5 && first.p.x < 120 + 0.5)
        #expect(!animator.diagnostics.contains { $0.severity == .warning })
    }

    @Test func aHashableIdentifierReachesTheUIKitSpellingAsAnNSString() throws {
        let listener = UIKitStyleListener()
        let (animator, collision, box) = shelfScene { collision in
            collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 200), to: CGPoint(x: 320, y: 200))
            collision.collisionDelegate = listener
        }
        animator.advance(by: 1)
        #expect(text(try #require(listener.began.first).id) == "shelf")
        // Taking the shelf away ends the contact, as UIKit reports a contact whose boundary went
        // away; the box then drops onto the reference bounds, whose identifier is nil.
        #expect(listener.ended.isEmpty)
        collision.removeBoundary(withIdentifier: "shelf" as NSCopying)
        animator.step()
        #expect(listener.ended.count == 1)
        #expect(listener.ended.first.flatMap(text) == "shelf")
        animator.advance(by: 1.5)
        #expect(listener.began.count == 2)
        #expect(listener.began.last.map { $0.id == nil } == true)
        #expect(abs(box.center.y - 460) < 0.5)
    }

    @Test func swiftSpelledDelegateReceivesHashableKeysForBothSpellings() {
        let listener = SwiftStyleListener()
        let (animator, _, _) = shelfScene { collision in
            collision.addBoundary(withIdentifier: "barrier" as NSCopying, from: CGPoint(x: 0, y: 200), to: CGPoint(x: 320, y: 200))
            collision.collisionDelegate = listener
        }
        animator.advance(by: 1)
        #expect(listener.began == [AnyHashable("barrier")])
    }

    @Test func boundariesAreFoundByEitherSpelling() {
        let collision = CollisionBehavior()
        collision.addBoundary(withIdentifier: "barrier" as NSCopying, from: .zero, to: CGPoint(x: 10, y: 0))
        collision.addBoundary(withIdentifier: 7, for: BezierPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5)))
        #expect(collision.boundary(withIdentifier: "barrier") != nil)
        #expect(collision.boundary(withIdentifier: NSNumber(value: 7)) != nil)
        #expect(collision.boundaryIdentifiers == ["barrier", 7])
        // Re-adding under the other spelling replaces, as one name.
        collision.addBoundary(withIdentifier: "barrier", from: .zero, to: CGPoint(x: 20, y: 0))
        #expect(collision.boundaryIdentifiers.count == 2)
        #expect(collision.boundary(withIdentifier: "barrier" as NSCopying)?.bounds.width == 20)
        collision.removeBoundary(withIdentifier: NSNumber(value: 7))
        collision.removeBoundary(withIdentifier: "barrier")
        #expect(collision.boundaryIdentifiers.isEmpty)
    }

    @Test func aDelegateMethodWithAnotherSignatureIsNotedOnce() throws {
        // A near miss: a non-optional identifier satisfies no requirement, so it is never called.
        final class NearMiss: CollisionBehaviorDelegate {
            var calls = 0
            func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                                   withBoundaryIdentifier identifier: NSCopying, at p: CGPoint) { calls += 1 }
        }
        let nearMiss = NearMiss()
        let animator = DynamicAnimator(referenceBounds: screen)
        let balls = (0..<3).map { BasicDynamicItem(center: CGPoint(x: 60 + 100 * CGFloat($0), y: 100), size: CGSize(width: 30, height: 30)) }
        let collision = CollisionBehavior(items: balls)
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = nearMiss
        animator.addBehavior(GravityBehavior(items: balls))
        animator.addBehavior(collision)
        animator.advance(by: 2)
        #expect(nearMiss.calls == 0)
        let notes = animator.diagnostics.filter {
            $0.kind == .delegateMethodMissing(method: "collisionBehavior(_:beganContactFor:withBoundaryIdentifier:at:)")
        }
        // Three balls landed, yet one note: once per delegate type and method.
        #expect(notes.count == 1)
        let note = try #require(notes.first)
        #expect(note.severity == .note)
        #expect(note.message.contains("NearMiss"))
        #expect(note.description.hasPrefix("note: "))
    }

    @Test func childrenBuiltInWillMoveJoinTheAnimator() {
        // UIKit's place to assemble a composite behaviour: willMove(to:), before it joins.
        final class Fall: DynamicBehavior {
            let item: any DynamicItem
            init(item: any DynamicItem) { self.item = item }
            override func willMove(to animator: DynamicAnimator?) {
                super.willMove(to: animator)
                guard animator != nil, childBehaviors.isEmpty else { return }
                addChildBehavior(GravityBehavior(items: [item]))
            }
        }
        let animator = DynamicAnimator()
        let ball = BasicDynamicItem(center: .zero, size: CGSize(width: 20, height: 20))
        let fall = Fall(item: ball)
        animator.addBehavior(fall)
        #expect(fall.childBehaviors.first?.dynamicAnimator === animator)
        animator.advance(by: 0.5)
        // Free fall at 1000 pt/s²: ½·g·t² = 125 pt, within one step's travel (g·t·Δt ≈ 8.3 pt).
        #expect(abs(ball.center.y - 125) < 1000 * 0.5 / 60)
    }

    @Test func aSubclassOverridingCollisionBoundsTypeRollsAsABall() {
        final class BallView: BasicDynamicItem {
            override var collisionBoundsType: DynamicItemCollisionBoundsType { .ellipse }
        }
        // A 30° incline, going down to the right (y grows downward), friction 1 for both items.
        let theta = CGFloat.pi / 6
        let along = CGVector(dx: cos(theta), dy: sin(theta))
        let up = CGVector(dx: sin(theta), dy: -cos(theta))        // the incline's normal, away from it
        let start = CGPoint(x: 40, y: 100)
        func onIncline(_ s: CGFloat, lift: CGFloat) -> CGPoint {
            CGPoint(x: start.x + s * along.dx + lift * up.dx, y: start.y + s * along.dy + lift * up.dy)
        }
        let ball = BallView(frame: CGRect(origin: .zero, size: CGSize(width: 40, height: 40)))
        ball.center = onIncline(60, lift: 20)
        let box = BasicDynamicItem(center: onIncline(200, lift: 20), size: CGSize(width: 40, height: 40))
        box.transform = CGAffineTransform(rotationAngle: theta)   // lying flat on the incline
        #expect(ball.collisionBoundsType == .ellipse)

        let animator = DynamicAnimator()
        let collision = CollisionBehavior(items: [ball, box])
        collision.addBoundary(withIdentifier: "incline", from: start, to: onIncline(600, lift: 0))
        let rough = DynamicItemBehavior(items: [ball, box])
        rough.friction = 1
        animator.addBehavior(rough)
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [ball, box]))
        let ball0 = ball.center, box0 = box.center
        animator.advance(by: 0.6)
        func travel(_ p: CGPoint, from p0: CGPoint) -> CGFloat { (p.x - p0.x) * along.dx + (p.y - p0.y) * along.dy }
        // A uniform disc rolling without slipping: a = (2/3)·g·sin θ = 333 pt/s², so ½·a·t² = 60 pt.
        let expected = 0.5 * (2.0 / 3.0) * 1000 * sin(theta) * 0.36
        #expect(abs(travel(ball.center, from: ball0) - expected) < 0.1 * expected)
        // The box is held by friction (tan 30° = 0.58 < 1): it stays put.
        #expect(abs(travel(box.center, from: box0)) < 1)
    }

    @Test func edgeInsetsRaiseTheFloor() {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = BasicDynamicItem(center: CGPoint(x: 160, y: 100), size: CGSize(width: 40, height: 40))
        let collision = CollisionBehavior(items: [box])
        collision.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(top: 0, left: 0, bottom: 44, right: 0))
        #expect(collision.referenceBoundsInsets == CollisionBehavior.Insets(top: 0, left: 0, bottom: 44, right: 0))
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.advance(by: 2)
        #expect(abs(box.center.y - (480 - 44 - 20)) < 0.5)
        #expect(screen.inset(by: EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)) == CGRect(x: 20, y: 10, width: 260, height: 440))
        #expect(EdgeInsetsMake(1, 2, 3, 4) == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    }

    @Test func anOffsetPushSpinsTheItem() {
        let animator = DynamicAnimator()
        let card = BasicDynamicItem(center: .zero, size: CGSize(width: 100, height: 100))   // mass 1
        let push = PushBehavior(items: [card], mode: .instantaneous)
        push.setAngle(0, magnitude: 1)                                   // 100 mass·pt/s toward +x
        push.setTargetOffsetFromCenter(Offset(horizontal: 0, vertical: -50), for: card)
        #expect(push.targetOffsetFromCenter(for: card).vertical == -50)
        animator.addBehavior(push)
        let spin = DynamicItemBehavior(items: [card])
        animator.addBehavior(spin)
        animator.step()
        // ω = (r × J) / I with I = m(w² + h²)/12 = 1666.7: (0·0 − (−50)·100) / 1666.7 = 3 rad/s.
        #expect(abs(spin.angularVelocity(for: card) - 3) < 1e-3)
        #expect(abs(spin.linearVelocity(for: card).x - 100) < 1e-3)
        #expect(OffsetMake(3, 4) == CGPoint(x: 3, y: 4))
    }

    @Test func aFloatRangeLimitsASlider() {
        let animator = DynamicAnimator()
        let bead = BasicDynamicItem(center: CGPoint(x: 100, y: 100), size: CGSize(width: 20, height: 20))
        let rail = AttachmentBehavior.slidingAttachment(with: bead, attachmentAnchor: bead.center,
                                                        axisOfTranslation: CGVector(dx: 1, dy: 0))
        rail.attachmentRange = FloatRange(minimum: -50, maximum: 50)
        #expect(rail.attachmentRange == -50...50)
        #expect(rail.attachmentRange.maximum == 50)
        let sideways = GravityBehavior(items: [bead])
        sideways.gravityDirection = CGVector(dx: 1, dy: 1)     // along the rail and across it
        animator.addBehavior(rail)
        animator.addBehavior(sideways)
        animator.advance(by: 2)
        #expect(abs(bead.center.x - 150) < 0.5)
        #expect(abs(bead.center.y - 100) < 0.5)
        // A reversed UIFloatRange has no Swift form: refused with a diagnostic, the range kept.
        rail.attachmentRange = FloatRange(minimum: 10, maximum: -10)
        #expect(rail.attachmentRange == -50...50)
        #expect(animator.diagnostics.last?.kind == .valueOutOfRange(property: "AttachmentBehavior.attachmentRange"))
        #expect(FloatRange.infinite.isInfinite && !FloatRange.zero.isInfinite)
        #expect(FloatRange(minimum: .nan, maximum: 1) == FloatRange.invalid)
    }

    @Test func behavioursAndTheAnimatorSubclassAsInUIKit() {
        final class HeavyGravity: GravityBehavior {
            override init(items: [any DynamicItem]) {
                super.init(items: items)
                magnitude = 2
            }
        }
        final class Walls: CollisionBehavior {
            override init(items: [any DynamicItem]) {
                super.init(items: items)
                translatesReferenceBoundsIntoBoundary = true
            }
        }
        final class Rod: AttachmentBehavior {}          // inherits UIKit's initialisers
        final class Animator: DynamicAnimator {
            var steps = 0
            init(size: CGSize) { super.init(referenceBounds: CGRect(origin: .zero, size: size)) }
        }
        let animator = Animator(size: CGSize(width: 320, height: 480))
        let stone = BasicDynamicItem(center: CGPoint(x: 100, y: 0), size: CGSize(width: 20, height: 20))
        animator.addBehavior(HeavyGravity(items: [stone]))
        animator.advance(by: 0.4)
        // 2000 pt/s²: ½·g·t² = 160 pt, within one step's travel (g·t·Δt ≈ 13 pt).
        #expect(abs(stone.center.y - 160) < 2000 * 0.4 / 60)

        let pendulum = BasicDynamicItem(center: CGPoint(x: 200, y: 100), size: CGSize(width: 20, height: 20))
        let rod = Rod(item: pendulum, attachedToAnchor: CGPoint(x: 200, y: 0))
        let walls = Walls(items: [pendulum])
        animator.addBehavior(rod)
        animator.addBehavior(walls)
        animator.addBehavior(GravityBehavior(items: [pendulum]))
        pendulum.center = CGPoint(x: 300, y: 0)
        animator.updateItem(usingCurrentState: pendulum)
        animator.advance(by: 1)
        // The rod keeps the bob 100 pt from the anchor.
        #expect(abs(hypot(pendulum.center.x - 200, pendulum.center.y) - 100) < 1)
        #expect(walls.translatesReferenceBoundsIntoBoundary)
    }

    @Test func fieldFactoriesMakeTheSubclassTheyAreCalledOn() {
        final class Wind: FieldBehavior {}
        final class Breeze: FieldBehavior {
            var label = "breeze"
            required init(_ law: Law) { super.init(law) }
        }
        let wind: Wind = Wind.linearGravityField(direction: CGVector(dx: 0.5, dy: 0))
        let breeze: Breeze = Breeze.dragField()
        #expect(wind.kind == .linearGravity && breeze.kind == .drag && breeze.label == "breeze")
        let animator = DynamicAnimator()
        let leaf = BasicDynamicItem(center: .zero, size: CGSize(width: 10, height: 10))
        wind.addItem(leaf)
        animator.addBehavior(wind)
        animator.advance(by: 0.5)
        // Linear gravity fields work in UIKit's field units, 100 pt/s² per unit of direction:
        // 0.5 × 100 pt/s² sideways gives ½·a·t² = 6.25 pt, within one step's travel (a·t·Δt).
        #expect(abs(leaf.center.x - 6.25) < 50 * 0.5 / 60)
        #expect(leaf.center.y == 0)
    }

    @Test func anAttachmentMeasuresItsLengthWhenItJoins() {
        let animator = DynamicAnimator()
        let weight = BasicDynamicItem(center: CGPoint(x: 300, y: 400), size: CGSize(width: 20, height: 20))
        let drag = AttachmentBehavior(item: weight, attachedToAnchor: .zero)
        #expect(abs(drag.length - 500) < 1e-9)             // before joining: the distance at creation
        drag.anchorPoint = CGPoint(x: 300, y: 390)
        animator.addBehavior(drag)
        #expect(abs(drag.length - 10) < 1e-9)              // joined: measured from where things are
        let rope = AttachmentBehavior(item: weight, attachedToAnchor: .zero)
        rope.length = 42
        rope.anchorPoint = CGPoint(x: 300, y: 300)
        animator.addBehavior(rope)
        #expect(rope.length == 42)                          // set explicitly: kept
    }

    @Test func removingWhatIsNotThereIsANoteNotAWarning() {
        let animator = DynamicAnimator(referenceBounds: screen)
        let item = BasicDynamicItem(center: .zero, size: CGSize(width: 10, height: 10))
        let collision = CollisionBehavior(items: [])
        let parent = DynamicBehavior()
        animator.addBehavior(collision)
        animator.addBehavior(parent)
        collision.removeBoundary(withIdentifier: "never added")
        collision.removeItem(item)
        parent.removeChildBehavior(GravityBehavior())
        animator.removeBehavior(SnapBehavior(item: item, snapTo: .zero))
        #expect(animator.diagnostics.count == 4)
        #expect(animator.diagnostics.allSatisfy { $0.severity == .note && $0.kind == .nothingToRemove })
    }
}

/// A view controller, as UIKit apps write them: main-actor isolated, the delegate of its own
/// animator and collision behaviour. The conformances are isolated (`@MainActor P`), so Swift 6
/// needs no unsafe escape hatch: the animator is driven from the main actor too.
@MainActor
private final class GameViewController {
    let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
    let ball = BasicDynamicItem(center: CGPoint(x: 160, y: 100), size: CGSize(width: 40, height: 40))
    var log: [String] = []

    func viewDidLoad() {
        let collision = CollisionBehavior(items: [ball])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = self
        animator.delegate = self
        animator.addBehavior(GravityBehavior(items: [ball]))
        animator.addBehavior(collision)
    }
}

extension GameViewController: @MainActor CollisionBehaviorDelegate {
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
        log.append("landed \(Int(p.y.rounded()))")
    }
}

extension GameViewController: @MainActor DynamicAnimatorDelegate {
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { log.append("resume") }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { log.append("pause") }
}

@Suite("UIKit surface on the main actor")
struct MainActorDelegateTests {
    @Test @MainActor func aViewControllerIsTheDelegate() {
        let controller = GameViewController()
        controller.viewDidLoad()
        controller.animator.advance(by: 3)
        #expect(controller.log == ["resume", "landed 480", "pause"])
    }
}
