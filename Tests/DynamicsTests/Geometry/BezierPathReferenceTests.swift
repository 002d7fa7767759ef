import Foundation
import Testing

import Dynamics

/// `BezierPath` has `UIBezierPath`'s reference semantics (issue 25, point 5): built through a
/// `let`, copied with `copy()`, and copied by the library whenever it keeps one.
@Suite("BezierPath as a reference type")
struct BezierPathReferenceTests {
    /// The form every archive of a path has had: written by the value-type `BezierPath` before
    /// this change (encoded with sorted keys), so snapshots and traces read as before.
    static let archivedForm = #"{"elements":[{"move":{"to":[0,0]}},{"line":{"to":[10,0]}},"#
        + #"{"quadCurve":{"control":[12.5,5],"to":[10,10]}},"#
        + #"{"curve":{"control1":[7,12],"control2":[3,-0.25],"to":[0,10]}},{"close":{}}],"usesEvenOddFillRule":false}"#

    /// The path of `archivedForm`, built as UIKit code builds one: through a `let`.
    static func archivedPath() -> BezierPath {
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addQuadCurve(to: CGPoint(x: 10, y: 10), controlPoint: CGPoint(x: 12.5, y: 5))
        path.addCurve(to: CGPoint(x: 0, y: 10), controlPoint1: CGPoint(x: 7, y: 12), controlPoint2: CGPoint(x: 3, y: -0.25))
        path.close()
        return path
    }

    @Test func aPathIsBuiltThroughALetAsInUIKit() {
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 300))
        path.addLine(to: CGPoint(x: 200, y: 340))
        path.addLine(to: CGPoint(x: 400, y: 300))
        #expect(path.elements == [.move(to: CGPoint(x: 0, y: 300)), .line(to: CGPoint(x: 200, y: 340)),
                                  .line(to: CGPoint(x: 400, y: 300))])
        #expect(path.bounds == CGRect(x: 0, y: 300, width: 400, height: 40))
        // A second name for the path is the same path, as with any object.
        let alias = path
        alias.close()
        #expect(path.elements.last == .close)
    }

    @Test func copyGivesAnIndependentPathInEveryUIKitSpelling() throws {
        let path = BezierPath(rect: CGRect(x: 0, y: 0, width: 40, height: 20))
        let forced = path.copy() as! BezierPath
        let conditional = try #require(path.copy() as? BezierPath)
        let typed: BezierPath = try #require(path.copy(with: nil) as? BezierPath)
        for copy in [forced, conditional, typed] {
            #expect(copy !== path)
            #expect(copy == path)
            #expect(copy.hash == path.hash)
        }
        // Changing the copy leaves the original, and the other way round.
        forced.apply(CGAffineTransform(translationX: 100, y: 0))
        forced.usesEvenOddFillRule = true
        #expect(path.bounds == CGRect(x: 0, y: 0, width: 40, height: 20))
        #expect(!path.usesEvenOddFillRule)
        path.removeAllPoints()
        #expect(forced.bounds == CGRect(x: 100, y: 0, width: 40, height: 20))
        #expect(conditional.elements.count == 5 && typed.elements.count == 5)
        #expect(path != conditional)
    }

    @Test func aSubclassCopiesToItsOwnClass() {
        final class OutlinePath: BezierPath {}
        let outline = OutlinePath(ovalIn: CGRect(x: 0, y: 0, width: 30, height: 30))
        let copy = outline.copy()
        #expect(copy is OutlinePath)
        #expect((copy as? BezierPath) == outline)
        #expect(outline.reversing() is OutlinePath)
    }

    @Test func theCodableFormIsByteIdenticalToTheValueTypes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let path = Self.archivedPath()
        #expect(String(decoding: try encoder.encode(path), as: UTF8.self) == Self.archivedForm)
        let decoded = try JSONDecoder().decode(BezierPath.self, from: Data(Self.archivedForm.utf8))
        #expect(decoded == path)
        #expect(decoded !== path)
        path.usesEvenOddFillRule = true
        let evenOdd = Self.archivedForm.replacingOccurrences(of: #""usesEvenOddFillRule":false"#,
                                                              with: #""usesEvenOddFillRule":true"#)
        #expect(String(decoding: try encoder.encode(path), as: UTF8.self) == evenOdd)
        #expect(try JSONDecoder().decode(BezierPath.self, from: Data(evenOdd.utf8)) == path)
    }

    @Test func changingAPathAfterAddingItAsABoundaryDoesNotMoveTheBoundary() throws {
        let animator = DynamicAnimator()
        let box = square(50, at: CGPoint(x: 100, y: 0))
        let collision = CollisionBehavior(items: [box])
        let floor = BezierPath()
        floor.move(to: CGPoint(x: 0, y: 300))
        floor.addLine(to: CGPoint(x: 400, y: 300))
        collision.addBoundary(withIdentifier: "floor", for: floor)
        // The caller goes on using its path: UIKit built the boundary at the add, so must we.
        floor.removeAllPoints()
        floor.move(to: CGPoint(x: 0, y: 100))
        floor.addLine(to: CGPoint(x: 400, y: 100))
        let stored = try #require(collision.boundary(withIdentifier: "floor"))
        #expect(stored.elements == [.move(to: CGPoint(x: 0, y: 300)), .line(to: CGPoint(x: 400, y: 300))])
        // What boundary(withIdentifier:) answers is a new path each call (as UIKit's).
        stored.apply(CGAffineTransform(translationX: 0, y: -250))
        #expect(collision.boundary(withIdentifier: "floor")?.bounds == CGRect(x: 0, y: 300, width: 400, height: 0))
        #expect(collision.boundary(withIdentifier: "floor") !== collision.boundary(withIdentifier: "floor"))
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.advance(by: 3)
        // Rests on y = 300: the centre 25 pt above, within the engine's 0.5 pt contact slop.
        #expect(box.center.y >= 275 && box.center.y <= 275.5)
        #expect(!animator.isRunning)
    }

    @Test func anItemsBoundingPathIsReadWhenItJoinsAndOnUpdateItem() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let item = BasicDynamicItem(center: CGPoint(x: 200, y: 300), size: CGSize(width: 100, height: 100),
                                    collisionBoundsType: .path)
        let outline = BezierPath(rect: CGRect(x: -25, y: -25, width: 50, height: 50))
        item.collisionBoundingPath = outline
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.advance(by: 2)
        // The 50 pt outline rests on the floor at 400: centre 375 (0.5 pt contact slop).
        #expect(item.center.y >= 375 && item.center.y <= 375.5)
        // Doubling the path in place changes nothing until the animator is told, as in UIKit.
        outline.apply(CGAffineTransform(scaleX: 2, y: 2))
        animator.advance(by: 1)
        #expect(item.center.y >= 375 && item.center.y <= 375.5)
        // updateItem reads it again and sees the change (it kept a copy, not the object).
        item.center = CGPoint(x: 200, y: 300)
        animator.updateItem(usingCurrentState: item)
        animator.advance(by: 2)
        #expect(item.center.y >= 350 && item.center.y <= 350.5)
    }
}
