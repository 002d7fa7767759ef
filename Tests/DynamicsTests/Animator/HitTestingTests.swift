import DynamicsEngine
import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// `items(at:)`, `raycast(from:to:)`, `raycastAll(from:to:)` and `items(in:)` through the public
/// API, against closed-form answers: the shapes' outlines, a ray's entry point on a box, the
/// order items joined in.
/// The Queries article's drag example, as written there.
private final class Dragger {
    let animator: DynamicAnimator
    private var grip: AttachmentBehavior?

    init(animator: DynamicAnimator) { self.animator = animator }

    func touchBegan(at point: CGPoint) {
        guard let item = animator.items(at: point).first else { return }
        let angle = atan2(item.transform.b, item.transform.a)
        let dx = point.x - item.center.x, dy = point.y - item.center.y
        let offset = CGPoint(x: cos(angle) * dx + sin(angle) * dy, y: -sin(angle) * dx + cos(angle) * dy)
        let grip = AttachmentBehavior(item: item, offsetFromCenter: offset, attachedToAnchor: point)
        animator.addBehavior(grip)
        self.grip = grip
    }

    func touchMoved(to point: CGPoint) { grip?.anchorPoint = point }

    func touchEnded() {
        if let grip { animator.removeBehavior(grip) }
        grip = nil
    }
}

@Suite struct HitTestingTests {
    /// The article's drag: a turned card grabbed off-centre follows the finger with the grabbed
    /// point under it (the attachment is a rigid rod of length 0 in UIKit's default), and is
    /// let go. The card on top (joined last) is the one grabbed.
    @Test func articleDrag() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let under = BasicDynamicItem(center: CGPoint(x: 200, y: 200), size: CGSize(width: 80, height: 50), name: "under")
        let card = BasicDynamicItem(center: CGPoint(x: 200, y: 200), size: CGSize(width: 80, height: 50), name: "card")
        card.transform = CGAffineTransform(rotationAngle: 0.6)
        animator.addBehavior(DynamicItemBehavior(items: [under]))
        animator.step()
        animator.addBehavior(DynamicItemBehavior(items: [card]))
        let dragger = Dragger(animator: animator)
        let grab = CGPoint(x: 215, y: 210)
        dragger.touchBegan(at: grab)
        // the grabbed point stays under the finger: no jump when the grip is made
        animator.step()
        #expect(abs(card.center.x - 200) < 0.01 && abs(card.center.y - 200) < 0.01)
        #expect(under.center == CGPoint(x: 200, y: 200))
        for k in 1...60 {
            dragger.touchMoved(to: CGPoint(x: grab.x + Double(k), y: grab.y + 0.5 * Double(k)))
            animator.step()
        }
        // the finger went 60 pt right and 30 down; the card went with it, the other stayed
        #expect(card.center.x > 250 && card.center.y > 220)
        #expect(Self.names(animator.items(at: CGPoint(x: grab.x + 60, y: grab.y + 30))).first == "card")
        dragger.touchEnded()
        #expect(animator.behaviors.count == 2)
        #expect(animator.diagnostics.isEmpty)
    }

    /// An animator holding `items` without moving them (an item behaviour, nothing else).
    static func still(_ items: [any DynamicItem], bounds: CGRect? = nil) -> DynamicAnimator {
        let animator = bounds.map { DynamicAnimator(referenceBounds: $0) } ?? DynamicAnimator()
        animator.addBehavior(DynamicItemBehavior(items: items))
        return animator
    }

    static func names(_ items: [any DynamicItem]) -> [String] { items.map { ($0 as? BasicDynamicItem)?.name ?? "?" } }

    // MARK: items(at:)

    /// A 60 × 20 rectangle at (200, 150) turned by θ (its transform): a point at local (u, v) is
    /// at the center plus R(θ)(u, v) (y down, +x toward +y). 0.01 pt inside each edge is in,
    /// 0.01 pt outside is out, the corners themselves are in.
    @Test(arguments: [0.0, 0.4, Double.pi / 2, 2.2, -1.1])
    func rotatedRectangleEdges(angle: Double) {
        let item = BasicDynamicItem(center: CGPoint(x: 200, y: 150), size: CGSize(width: 60, height: 20), name: "r")
        item.transform = CGAffineTransform(rotationAngle: CGFloat(angle))
        let animator = Self.still([item])
        func at(_ u: Double, _ v: Double) -> CGPoint {
            CGPoint(x: 200 + cos(angle) * u - sin(angle) * v, y: 150 + sin(angle) * u + cos(angle) * v)
        }
        for (u, v) in [(29.99, 0.0), (-29.99, 0), (0, 9.99), (0, -9.99), (29.99, 9.99), (-29.99, 9.99), (0, 0)] {
            #expect(Self.names(animator.items(at: at(u, v))) == ["r"], "(\(u), \(v)) at θ = \(angle)")
        }
        for (u, v) in [(30.01, 0.0), (-30.01, 0), (0, 10.01), (0, -10.01), (30.01, 9.99), (29.99, -10.01)] {
            #expect(animator.items(at: at(u, v)).isEmpty, "(\(u), \(v)) at θ = \(angle)")
        }
        if angle == 0 {
            for corner in [CGPoint(x: 170, y: 140), CGPoint(x: 230, y: 160), CGPoint(x: 230, y: 140), CGPoint(x: 170, y: 160)] {
                #expect(animator.items(at: corner).count == 1, "corner \(corner)")
            }
        }
        #expect(animator.diagnostics.isEmpty)
    }

    /// A 160 × 60 ellipse turned by 0.5 rad. Its collision polygon is inscribed, with vertices on
    /// the ellipse and edges within 0.5 pt of it (``DynamicItemCollisionBoundsType/ellipse``):
    /// so along each of 720 normals, the point 0.01 pt outside the ellipse is out, and the point
    /// 0.5 pt inside is in.
    @Test func ellipseWithinHalfAPoint() {
        let item = BasicDynamicItem(center: CGPoint(x: -50, y: 80), size: CGSize(width: 160, height: 60),
                                    collisionBoundsType: .ellipse, name: "e")
        let turn = 0.5
        item.transform = CGAffineTransform(rotationAngle: CGFloat(turn))
        let animator = Self.still([item])
        let a = 80.0, b = 30.0
        func world(_ x: Double, _ y: Double) -> CGPoint {
            CGPoint(x: -50 + cos(turn) * x - sin(turn) * y, y: 80 + sin(turn) * x + cos(turn) * y)
        }
        for k in 0..<720 {
            let t = Double(k) * Double.pi / 360
            let px = a * cos(t), py = b * sin(t)
            // outward normal of x²/a² + y²/b² = 1 at (px, py)
            let nx = px / (a * a), ny = py / (b * b), nl = (nx * nx + ny * ny).squareRoot()
            let out = world(px + 0.01 * nx / nl, py + 0.01 * ny / nl)
            let inside = world(px - 0.5 * nx / nl, py - 0.5 * ny / nl)
            #expect(animator.items(at: out).isEmpty, "t = \(t)")
            #expect(animator.items(at: inside).count == 1, "t = \(t)")
        }
    }

    /// A circle (an ellipse with equal sides) is exact: 0.01 pt either side of its radius.
    @Test func circleIsExact() {
        let item = BasicDynamicItem(center: CGPoint(x: 10, y: 10), size: CGSize(width: 50, height: 50), collisionBoundsType: .ellipse)
        let animator = Self.still([item])
        for k in 0..<64 {
            let t = Double(k) * Double.pi / 32
            #expect(animator.items(at: CGPoint(x: 10 + 24.99 * cos(t), y: 10 + 24.99 * sin(t))).count == 1)
            #expect(animator.items(at: CGPoint(x: 10 + 25.01 * cos(t), y: 10 + 25.01 * sin(t))).isEmpty)
        }
    }

    /// A path item: the triangle (−40, 30), (40, 30), (0, −30) around its center (100, 100). Its
    /// edges' midpoints 0.01 pt in and out along each edge's normal.
    @Test func pathTriangle() {
        final class Triangle: BasicDynamicItem {
            override var collisionBoundsType: DynamicItemCollisionBoundsType { .path }
        }
        let item = Triangle(center: CGPoint(x: 100, y: 100), size: CGSize(width: 80, height: 60), name: "t")
        let path = BezierPath()
        let corners = [CGPoint(x: -40, y: 30), CGPoint(x: 40, y: 30), CGPoint(x: 0, y: -30)]
        path.move(to: corners[0]); path.addLine(to: corners[1]); path.addLine(to: corners[2]); path.close()
        item.collisionBoundingPath = path
        let animator = Self.still([item])
        for i in 0..<3 {
            let p = corners[i], q = corners[(i + 1) % 3]
            let mx = Double(p.x + q.x) / 2, my = Double(p.y + q.y) / 2
            // the centroid (0, 10) is inside: the normal points away from it
            var nx = Double(q.y - p.y), ny = -Double(q.x - p.x)
            let l = (nx * nx + ny * ny).squareRoot(); nx /= l; ny /= l
            if nx * (mx - 0) + ny * (my - 10) < 0 { nx = -nx; ny = -ny }
            #expect(Self.names(animator.items(at: CGPoint(x: 100 + mx - 0.01 * nx, y: 100 + my - 0.01 * ny))) == ["t"], "edge \(i)")
            #expect(animator.items(at: CGPoint(x: 100 + mx + 0.01 * nx, y: 100 + my + 0.01 * ny)).isEmpty, "edge \(i)")
        }
        // the bounding rectangle's corner is outside the triangle
        #expect(animator.items(at: CGPoint(x: 62, y: 72)).isEmpty)
        #expect(animator.diagnostics.isEmpty)
    }

    /// A group answers for its members (once, even where two overlap), and not in the gap
    /// between them — also for `items(in:)`, which tests each member's box.
    @Test func groupMembers() {
        let left = BasicDynamicItem(center: CGPoint(x: 0, y: 0), size: CGSize(width: 40, height: 40), name: "left")
        let right = BasicDynamicItem(center: CGPoint(x: 100, y: 0), size: CGSize(width: 40, height: 40),
                                     collisionBoundsType: .ellipse, name: "right")
        let overlap = BasicDynamicItem(center: CGPoint(x: 15, y: 0), size: CGSize(width: 20, height: 20), name: "overlap")
        let group = DynamicItemGroup(items: [left, right, overlap])
        let animator = Self.still([group])
        #expect(animator.items(at: CGPoint(x: -19, y: 19)).first === group)
        #expect(animator.items(at: CGPoint(x: 15, y: 0)).count == 1)          // in two members: the group once
        #expect(animator.items(at: CGPoint(x: 119, y: 0)).first === group)
        #expect(animator.items(at: CGPoint(x: 119, y: 19)).isEmpty)         // the ellipse's corner
        #expect(animator.items(at: CGPoint(x: 50, y: 0)).isEmpty)           // between the members
        #expect(animator.items(in: CGRect(x: 45, y: -5, width: 10, height: 10)).isEmpty)
        #expect(animator.items(in: CGRect(x: 70, y: -5, width: 20, height: 10)).first === group)
    }

    /// Last joined first, as subviews are hit-tested front to back; an item that leaves and
    /// joins again is the newest.
    @Test func lastJoinedFirst() {
        let items = ["a", "b", "c", "d"].enumerated().map { k, name in
            BasicDynamicItem(center: CGPoint(x: 10 * Double(k), y: 0), size: CGSize(width: 100, height: 100), name: name)
        }
        let animator = DynamicAnimator()
        var behaviours: [DynamicItemBehavior] = []
        for item in items {
            let b = DynamicItemBehavior(items: [item])
            behaviours.append(b)
            animator.addBehavior(b)
            animator.step()   // each joins in its own synchronisation
        }
        #expect(Self.names(animator.items(at: CGPoint(x: 15, y: 0))) == ["d", "c", "b", "a"])
        #expect(Self.names(animator.items(in: CGRect(x: 14, y: 0, width: 1, height: 1))) == ["a", "b", "c", "d"])
        animator.removeBehavior(behaviours[1])
        animator.step()
        animator.addBehavior(behaviours[1])
        #expect(Self.names(animator.items(at: CGPoint(x: 15, y: 0))) == ["b", "d", "c", "a"])
        // point covered by a and b only (b's box reaches x = −40…60, d's starts at −20)
        #expect(Self.names(animator.items(at: CGPoint(x: -45, y: 0))) == ["a"])
    }

    /// The world as the last step left it: a falling item is found where it is drawn; a center
    /// set by hand counts once the item is re-read, as UIKit's animator would overwrite it.
    @Test func positionsAreThoseOfTheLastStep() {
        let item = BasicDynamicItem(center: CGPoint(x: 0, y: 0), size: CGSize(width: 20, height: 20), name: "f")
        let animator = DynamicAnimator()
        animator.addBehavior(GravityBehavior(items: [item]))
        #expect(animator.items(at: CGPoint(x: 0, y: 0)).count == 1)   // joined, not yet stepped
        run(animator, steps: 30)
        // 30 steps of 1/60 s under 1000 pt/s²: ~125 pt down, far below its first place
        #expect(item.center.y > 100)
        #expect(animator.items(at: CGPoint(x: 0, y: 0)).isEmpty)
        #expect(Self.names(animator.items(at: item.center)) == ["f"])
        #expect(animator.raycast(from: CGPoint(x: -50, y: item.center.y), to: CGPoint(x: 50, y: item.center.y))?.item === item)
        item.center = CGPoint(x: 500, y: 500)
        #expect(animator.items(at: CGPoint(x: 500, y: 500)).isEmpty)
        animator.updateItem(usingCurrentState: item)
        #expect(Self.names(animator.items(at: CGPoint(x: 500, y: 500))) == ["f"])
    }

    // MARK: Rays

    /// A 40 × 40 item at (100, 100): a ray from (0, 100) to (200, 100) enters it at x = 80:
    /// fraction 0.4, normal (−1, 0); turned by 45°, its corner faces the ray: a ray at y = 110
    /// enters the face x − y = −20√2 (relative to the center) at x = 100 + 10 − 20√2.
    @Test func rayOnABox() throws {
        let item = BasicDynamicItem(center: CGPoint(x: 100, y: 100), size: CGSize(width: 40, height: 40), name: "box")
        let animator = Self.still([item])
        let hit = try #require(animator.raycast(from: CGPoint(x: 0, y: 100), to: CGPoint(x: 200, y: 100)))
        #expect(hit.item === item && hit.boundaryIdentifier == nil)
        // the engine's Float: fractions to 1e-7, points of a 200 pt ray to 2·10⁻⁵ pt
        #expect(abs(hit.fraction - 0.4) < 1e-7)
        #expect(abs(hit.point.x - 80) < 2e-5 && hit.point.y == 100)
        #expect(hit.normal == CGVector(dx: -1, dy: 0))

        item.transform = CGAffineTransform(rotationAngle: .pi / 4)
        animator.updateItem(usingCurrentState: item)
        let turned = try #require(animator.raycast(from: CGPoint(x: 0, y: 110), to: CGPoint(x: 200, y: 110)))
        let x = 100 + 10 - 20 * 2.0.squareRoot()
        #expect(abs(Double(turned.point.x) - x) < 1e-4)
        #expect(abs(Double(turned.fraction) - x / 200) < 1e-6)
        // the face's outward normal: (−1, 1)/√2 in y-down coordinates
        #expect(abs(Double(turned.normal.dx) + 0.5.squareRoot()) < 1e-5)
        #expect(abs(Double(turned.normal.dy) - 0.5.squareRoot()) < 1e-5)
    }

    /// Boundaries: an explicit one reports its identifier (an `NSCopying` string as the Swift
    /// string, as `boundaryIdentifiers` lists it), the reference bounds report `nil` (as the
    /// collision delegate does); both with the normal facing the ray.
    @Test func boundariesAndTheirIdentifiers() throws {
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 480)
        let animator = DynamicAnimator(referenceBounds: bounds)
        let collision = CollisionBehavior(items: [])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf" as AnyHashable, from: CGPoint(x: 20, y: 300), to: CGPoint(x: 200, y: 300))
        collision.addBoundary(withIdentifier: NSString(string: "wall"), from: CGPoint(x: 250, y: 100), to: CGPoint(x: 250, y: 400))
        animator.addBehavior(collision)
        // down through the shelf at y = 300: fraction (300 − 100) / 400
        let shelf = try #require(animator.raycast(from: CGPoint(x: 100, y: 100), to: CGPoint(x: 100, y: 500)))
        #expect(shelf.item == nil)
        #expect(shelf.boundaryIdentifier == AnyHashable("shelf"))
        #expect(abs(shelf.fraction - 0.5) < 1e-7)
        #expect(shelf.normal == CGVector(dx: 0, dy: -1))
        // up from below the shelf: normal (0, 1)
        let under = try #require(animator.raycast(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 100, y: 200)))
        #expect(under.boundaryIdentifier == AnyHashable("shelf") && under.normal == CGVector(dx: 0, dy: 1))
        // right through the wall at x = 250
        let wall = try #require(animator.raycast(from: CGPoint(x: 150, y: 200), to: CGPoint(x: 350, y: 200)))
        #expect(wall.boundaryIdentifier == AnyHashable("wall") && abs(wall.fraction - 0.5) < 1e-7)
        // past the shelf's end, down to the reference bounds' floor at y = 480
        let floor = try #require(animator.raycast(from: CGPoint(x: 210, y: 240), to: CGPoint(x: 210, y: 1000)))
        #expect(floor.item == nil && floor.boundaryIdentifier == nil)
        #expect(abs(floor.fraction - 240.0 / 760) < 1e-7)
        #expect(abs(floor.point.y - 480) < 1e-4)
        #expect(floor.normal == CGVector(dx: 0, dy: -1))
        #expect(animator.diagnostics.isEmpty)
    }

    /// Every hit, nearest first, each item and boundary once: a row of items and a zigzag
    /// boundary crossed twice (reported at its first crossing).
    @Test func raycastAllInOrder() {
        let a = BasicDynamicItem(center: CGPoint(x: 100, y: 0), size: CGSize(width: 20, height: 20), name: "a")
        let b = BasicDynamicItem(center: CGPoint(x: 200, y: 0), size: CGSize(width: 40, height: 40), collisionBoundsType: .ellipse, name: "b")
        let m1 = BasicDynamicItem(center: CGPoint(x: 300, y: 0), size: CGSize(width: 20, height: 20), name: "m1")
        let m2 = BasicDynamicItem(center: CGPoint(x: 340, y: 0), size: CGSize(width: 20, height: 20), name: "m2")
        let group = DynamicItemGroup(items: [m1, m2])
        let animator = DynamicAnimator()
        let collision = CollisionBehavior(items: [a, group])   // b is in no collision behaviour: still hit
        let zigzag = BezierPath()
        zigzag.move(to: CGPoint(x: 400, y: -50)); zigzag.addLine(to: CGPoint(x: 420, y: 50)); zigzag.addLine(to: CGPoint(x: 440, y: -50))
        collision.addBoundary(withIdentifier: "zigzag" as AnyHashable, for: zigzag)
        animator.addBehavior(collision)
        animator.addBehavior(DynamicItemBehavior(items: [b]))
        let hits = animator.raycastAll(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 500, y: 0))
        #expect(hits.map { ($0.item as? BasicDynamicItem)?.name ?? (($0.boundaryIdentifier?.base as? String) ?? "?") }
                == ["a", "b", "?", "zigzag"])
        #expect(hits.count == 4)
        guard hits.count == 4 else { return }
        #expect(hits[2].item === group)
        // entry points: a at x = 90, b at 180, the group at 290, the zigzag's first leg at 410
        for (hit, x) in zip(hits, [90.0, 180, 290, 410]) {
            #expect(abs(Double(hit.point.x) - x) < 1e-4 && abs(Double(hit.fraction) - x / 500) < 2e-7, "\(hit)")
        }
        #expect(hits.map(\.normal.dx).allSatisfy { $0 < 0 })
        // the first hit is raycast's answer
        #expect(animator.raycast(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 500, y: 0))?.item === a)
        // from inside a: a is not hit (Box2D's rule), b comes first
        #expect(animator.raycastAll(from: CGPoint(x: 100, y: 0), to: CGPoint(x: 500, y: 0)).first?.item === b)
    }

    /// Two items in the same place: the ray's first hit is the one that joined last.
    @Test func tiesGoToTheLastJoined() {
        let first = BasicDynamicItem(center: CGPoint(x: 50, y: 0), size: CGSize(width: 20, height: 20), name: "first")
        let second = BasicDynamicItem(center: CGPoint(x: 50, y: 0), size: CGSize(width: 20, height: 20), name: "second")
        let animator = Self.still([first])
        animator.step()
        animator.addBehavior(DynamicItemBehavior(items: [second]))
        #expect(animator.raycast(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 0))?.item === second)
        #expect(Self.names(animator.raycastAll(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 0)).compactMap(\.item)) == ["second", "first"])
    }

    // MARK: Bad input

    @Test func badInputIsReported() {
        let item = BasicDynamicItem(center: .zero, size: CGSize(width: 20, height: 20))
        let animator = Self.still([item])
        #expect(animator.items(at: CGPoint(x: CGFloat.nan, y: 0)).isEmpty)
        #expect(animator.items(at: CGPoint(x: 0, y: 2e7)).isEmpty)
        #expect(animator.raycast(from: CGPoint(x: -50, y: 0), to: CGPoint(x: CGFloat.infinity, y: 0)) == nil)
        #expect(animator.raycastAll(from: CGPoint(x: -50, y: 0), to: CGPoint(x: -50, y: 0)).isEmpty)
        #expect(animator.raycast(from: CGPoint(x: 5, y: 5), to: CGPoint(x: 5, y: 5)) == nil)
        #expect(animator.diagnostics.count == 5)
        #expect(animator.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(animator.diagnostics.map(\.kind) == [
            .nonFiniteValue(property: "DynamicAnimator.items(at:)"), .valueOutOfRange(property: "DynamicAnimator.items(at:)"),
            .nonFiniteValue(property: "DynamicAnimator.raycast(from:to:)"),
            .valueOutOfRange(property: "DynamicAnimator.raycastAll(from:to:)"),   // a ray of no length
            .valueOutOfRange(property: "DynamicAnimator.raycast(from:to:)"),
        ])
        // and the world is untouched: good queries still answer
        #expect(animator.items(at: .zero).first === item)
        #expect(abs((animator.raycast(from: CGPoint(x: -50, y: 0), to: CGPoint(x: 50, y: 0))?.fraction ?? 0) - 0.4) < 1e-7)
        // an empty animator answers nothing, without a diagnostic
        let empty = DynamicAnimator()
        #expect(empty.items(at: .zero).isEmpty && empty.raycast(from: .zero, to: CGPoint(x: 1, y: 1)) == nil)
        #expect(empty.diagnostics.isEmpty)
    }

    // MARK: Fuzz

    /// Random rotated rectangles and circles, falling and colliding; thousands of points per
    /// seed, each answered as the closed-form test in `Double` answers it (points within 0.01 pt
    /// of an outline are skipped: Float positions decide those). Between rounds the world steps.
    @Test(arguments: [UInt64(11), 12, 13])
    func itemsAtMatchesTheOutlines(seed: UInt64) {
        var rng = SplitMix64Generator(seed: seed)
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 800, height: 600))
        var items: [BasicDynamicItem] = []
        for k in 0..<150 {
            let item = BasicDynamicItem(center: CGPoint(x: Double.random(in: 40...760, using: &rng), y: Double.random(in: 40...560, using: &rng)),
                                        size: CGSize(width: Double.random(in: 6...50, using: &rng), height: Double.random(in: 6...50, using: &rng)),
                                        collisionBoundsType: k % 4 == 0 ? .ellipse : .rectangle, name: "\(k)")
            if k % 4 == 0 { item.bounds.size.height = item.bounds.size.width }   // circles
            item.transform = CGAffineTransform(rotationAngle: Double.random(in: -3...3, using: &rng))
            items.append(item)
        }
        let collision = CollisionBehavior(items: Array(items.prefix(100)))   // the rest collide with nothing
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: items))
        var tested = 0, found = 0
        for _ in 0..<4 {
            for _ in 0..<1_000 {
                let p = CGPoint(x: Double.random(in: -20...820, using: &rng), y: Double.random(in: -20...620, using: &rng))
                var expected: [String] = []
                var nearEdge = false
                for item in items {
                    let angle = Double(item.angle)
                    let dx = Double(p.x - item.center.x), dy = Double(p.y - item.center.y)
                    let u = cos(angle) * dx + sin(angle) * dy, v = -sin(angle) * dx + cos(angle) * dy
                    let w = Double(item.bounds.width) / 2, h = Double(item.bounds.height) / 2
                    let radial: Double = (u * u + v * v).squareRoot()
                    let margin: Double = item.collisionBoundsType == .ellipse ? w - radial : min(w - abs(u), h - abs(v))
                    if abs(margin) < 0.01 { nearEdge = true }
                    if margin > 0 { expected.append(item.name!) }
                }
                if nearEdge { continue }
                let got = Self.names(animator.items(at: p))
                #expect(got.sorted() == expected.sorted(), "point \(p)")
                // last joined first: joined in creation order, so names by descending number
                #expect(got.map { Int($0)! } == got.map { Int($0)! }.sorted(by: >))
                tested += 1; found += got.count
            }
            run(animator, steps: 15)
        }
        #expect(tested > 3_900)
        #expect(found > 150)
    }

    /// `items(in:)` through the grid answers as the walk over every item did before (per item,
    /// the union of its shapes' boxes, which is its one shape's box for items that are not
    /// groups), for random rectangles, before and after steps.
    @Test(arguments: [UInt64(21), 22])
    func itemsInMatchesTheWalk(seed: UInt64) {
        var rng = SplitMix64Generator(seed: seed)
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 800, height: 600))
        let items = (0..<300).map { k in
            BasicDynamicItem(center: CGPoint(x: Double.random(in: 20...780, using: &rng), y: Double.random(in: 20...580, using: &rng)),
                             size: CGSize(width: Double.random(in: 4...40, using: &rng), height: Double.random(in: 4...40, using: &rng)),
                             collisionBoundsType: k % 3 == 0 ? .ellipse : .rectangle)
        }
        let collision = CollisionBehavior(items: Array(items.prefix(200)))
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: items))
        func walk(_ r: CGRect) -> [ObjectIdentifier] {
            animator.records.compactMap { record -> ObjectIdentifier? in
                var box: AABB?
                for shape in record.shapes { let b = animator.world.aabb(shape); box = box.map { $0.union(b) } ?? b }
                guard let b = box else { return nil }
                let hit = CGFloat(b.lower.x) <= r.maxX && CGFloat(b.upper.x) >= r.minX && CGFloat(b.lower.y) <= r.maxY && CGFloat(b.upper.y) >= r.minY
                return hit ? record.id : nil
            }
        }
        var nonEmpty = 0
        for _ in 0..<3 {
            for _ in 0..<500 {
                let r = CGRect(x: Double.random(in: -50...850, using: &rng), y: Double.random(in: -50...650, using: &rng),
                               width: Double.random(in: 0...200, using: &rng), height: Double.random(in: 0...200, using: &rng))
                let got = animator.items(in: r).map { ObjectIdentifier($0) }
                #expect(got == walk(r), "rect \(r)")
                if !got.isEmpty { nonEmpty += 1 }
            }
            run(animator, steps: 20)
        }
        #expect(nonEmpty > 500)
    }
}
