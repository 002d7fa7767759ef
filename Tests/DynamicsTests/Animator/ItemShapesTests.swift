import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

@Suite("Item shapes")
struct ItemShapesTests {
    @Test(arguments: [1.0, 5, 50, 100, 400, 5000])
    func ellipsePolygonStaysWithinHalfAPoint(semiMajor a: Double) {
        let n = ItemShapes.ellipseVertexCount(semiMajor: a)
        #expect(n >= 8 && n % 4 == 0)
        // The sagitta of one edge on the circle of radius a.
        #expect(a * (1 - cos(Double.pi / Double(n))) <= 0.5 + 1e-12)
        if n > 8 {
            // …and four vertices fewer (the next multiple of 4 down) would not do.
            #expect(a * (1 - cos(Double.pi / Double(n - 4))) > 0.5)
        }
    }

    @Test func ellipseOutlineIsWithinHalfAPointOfTheTrueEllipse() {
        let animator = DynamicAnimator()
        let item = BasicDynamicItem(center: .zero, size: CGSize(width: 300, height: 120), collisionBoundsType: .ellipse)
        animator.addBehavior(CollisionBehavior(items: [item]))
        animator.step()
        let record = animator.record(for: item)!
        let outline = animator.world.outline(record.shapes[0]).points
        let a = 150.0, b = 60.0
        // Every edge midpoint lies inside the ellipse by at most 0.5 pt (measured along the normal
        // of the scaled circle: a conservative bound is the radial gap on the unit circle × a).
        for i in 0..<outline.count {
            let p = outline[i], q = outline[(i + 1) % outline.count]
            let mx = Double(p.x + q.x) / 2, my = Double(p.y + q.y) / 2
            let s = ((mx / a) * (mx / a) + (my / b) * (my / b)).squareRoot()
            #expect(s <= 1 + 1e-5)
            #expect((1 - s) * a <= 0.5 + 1e-3)
        }
        // Exact mass: π·w·h/4 / 10 000.
        #expect(abs(Double(animator.mass(of: record)) - Double.pi * 300 * 120 / 4 / 10_000) < 1e-4)
    }

    final class PathItem: DynamicItem {
        var center: CGPoint = .zero
        var bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        var transform: CGAffineTransform = .identity
        var collisionBoundsType: DynamicItemCollisionBoundsType { .path }
        var collisionBoundingPath: BezierPath?
        init(_ path: BezierPath?) { collisionBoundingPath = path }
    }

    @Test func convexPathIsUsedAsIs() {
        let animator = DynamicAnimator()
        let triangle = BezierPath()
        triangle.move(to: CGPoint(x: -50, y: 50))
        triangle.addLine(to: CGPoint(x: 50, y: 50))
        triangle.addLine(to: CGPoint(x: 0, y: -50))
        triangle.close()
        let item = PathItem(triangle)
        animator.addBehavior(CollisionBehavior(items: [item]))
        animator.step()
        #expect(animator.diagnostics.isEmpty)
        let record = animator.record(for: item)!
        #expect(animator.world.outline(record.shapes[0]).points.count == 3)
        // Mass from the polygon's area: 100 × 100 / 2 = 5000 pt² → 0.5.
        #expect(abs(animator.mass(of: record) - 0.5) < 1e-5)
    }

    @Test func concaveAndSelfIntersectingPathsUseTheirHull() {
        let animator = DynamicAnimator()
        let chevron = BezierPath()
        chevron.move(to: CGPoint(x: -50, y: -50))
        chevron.addLine(to: CGPoint(x: 0, y: 0))
        chevron.addLine(to: CGPoint(x: 50, y: -50))
        chevron.addLine(to: CGPoint(x: 0, y: 50))
        chevron.close()
        let bowtie = BezierPath()
        bowtie.move(to: CGPoint(x: -50, y: -50))
        bowtie.addLine(to: CGPoint(x: 50, y: 50))
        bowtie.addLine(to: CGPoint(x: 50, y: -50))
        bowtie.addLine(to: CGPoint(x: -50, y: 50))
        bowtie.close()
        let concave = PathItem(chevron), crossed = PathItem(bowtie)
        animator.addBehavior(CollisionBehavior(items: [concave, crossed]))
        animator.step()
        // One kind for both; the message tells a concave outline from a crossed one.
        let concaveReports = animator.diagnostics.filter { $0.kind == .collisionShapeReplaced(item: ObjectIdentifier(concave)) }
        let crossedReports = animator.diagnostics.filter { $0.kind == .collisionShapeReplaced(item: ObjectIdentifier(crossed)) }
        #expect(concaveReports.count == 1 && concaveReports[0].message.contains("has a concave collisionBoundingPath"))
        #expect(crossedReports.count == 1 && crossedReports[0].message.contains("self-intersecting"))
        #expect(animator.world.outline(animator.record(for: concave)!.shapes[0]).points.count == 3)
        #expect(animator.world.outline(animator.record(for: crossed)!.shapes[0]).points.count == 4)
    }

    @Test func missingOrDegeneratePathsFallBackToTheRectangle() {
        let animator = DynamicAnimator()
        let line = BezierPath()
        line.move(to: CGPoint(x: -10, y: 0))
        line.addLine(to: CGPoint(x: 10, y: 0))
        let items = [PathItem(nil), PathItem(BezierPath()), PathItem(line)]
        animator.addBehavior(CollisionBehavior(items: items))
        animator.step()
        #expect(animator.diagnostics.count == 3)
        for item in items {
            #expect(abs(animator.mass(of: animator.record(for: item)!) - 1) < 1e-5)
        }
    }

    @Test func rotatedItemsStartRotated() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        item.transform = CGAffineTransform(rotationAngle: 0.7)
        animator.addBehavior(CollisionBehavior(items: [item]))
        animator.ensureSynced()
        let box = animator.world.aabb(animator.record(for: item)!.shapes[0])
        let half = 50 * (cos(0.7) + sin(0.7))
        #expect(abs(Double(box.upper.x) - half) < 1e-3)
        let spin = DynamicItemBehavior(items: [item])
        animator.addBehavior(spin)
        animator.step()
        #expect(abs(item.angle - 0.7) < 1e-6)
        #expect(item.transform.c == -item.transform.b)
    }
}
