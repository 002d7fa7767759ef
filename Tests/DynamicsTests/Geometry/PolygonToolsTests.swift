import Foundation
import Testing
@testable import Dynamics

@Suite struct PolygonToolsTests {
    private func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    private func near(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-12) -> Bool { abs(a - b) <= tolerance }

    @Test func splitMix64MatchesReferenceOutput() {
        // First outputs for seed 0 from the reference C implementation.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    // MARK: Hull

    @Test func hullOfSquareDropsInteriorCollinearAndDuplicatePoints() {
        let points = [pt(0, 0), pt(10, 0), pt(5, 0), pt(10, 10), pt(0, 10), pt(5, 5), pt(0, 0), pt(0, 5), pt(10, 10)]
        #expect(PolygonTools.convexHull(points) == [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)])
        #expect(PolygonTools.convexHull(points.reversed()) == [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)])
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func hullOfRandomPointsIsConvexAndContainsEveryPoint(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let points = (0..<300).map { _ in
            pt(CGFloat(Double.random(in: -500...500, using: &rng)), CGFloat(Double.random(in: -500...500, using: &rng)))
        }
        let hull = PolygonTools.convexHull(points)
        #expect(hull.count >= 3)
        #expect(PolygonTools.isConvex(hull))
        #expect(PolygonTools.isSimple(hull))
        #expect(PolygonTools.signedArea(hull) > 0)
        // Every hull vertex is an input point.
        #expect(hull.allSatisfy { v in points.contains(v) })
        // Every input point is on the inner side of (or on) every hull edge.
        var worst = CGFloat.infinity
        for i in hull.indices {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let length = hypot(b.x - a.x, b.y - a.y)
            for q in points {
                worst = min(worst, ((b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)) / length)
            }
        }
        #expect(worst >= -1e-9)
        // Shuffling the input does not change the answer.
        var shuffled = points
        shuffled.shuffle(using: &rng)
        #expect(PolygonTools.convexHull(shuffled) == hull)
    }

    @Test func hullOfPointsOnACircleKeepsThemAll() {
        let points = (0..<64).map { i -> CGPoint in
            let angle = Double(i) / 64 * 2 * Double.pi
            return pt(CGFloat(100 * cos(angle)), CGFloat(100 * sin(angle)))
        }
        let hull = PolygonTools.convexHull(points)
        #expect(hull.count == 64)
        #expect(near(PolygonTools.area(hull), 32 * 100 * 100 * CGFloat(sin(2 * Double.pi / 64)), 1e-6))
    }

    @Test func hullDegenerateAndNonFiniteInput() {
        #expect(PolygonTools.convexHull([]).isEmpty)
        #expect(PolygonTools.convexHull([pt(.nan, 0), pt(.infinity, 1)]).isEmpty)
        #expect(PolygonTools.convexHull([pt(2, 2), pt(2, 2)]) == [pt(2, 2)])
        #expect(PolygonTools.convexHull([pt(1, 1), pt(0, 0), pt(3, 3), pt(2, 2)]) == [pt(0, 0), pt(3, 3)])
        let mixed = [pt(0, 0), pt(.nan, 1), pt(1, 0), pt(.infinity, .infinity), pt(0, 1), pt(-.infinity, 4)]
        #expect(PolygonTools.convexHull(mixed) == [pt(0, 0), pt(1, 0), pt(0, 1)])
    }

    @Test func hullToleranceDropsNearlyCollinearPoints() {
        let square = [pt(0, 0), pt(5, -0.01), pt(10, 0), pt(10, 10), pt(0, 10)]
        #expect(PolygonTools.convexHull(square).count == 5)
        #expect(PolygonTools.convexHull(square, tolerance: 0.1) == [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)])
    }

    // MARK: Convexity and simplicity

    @Test func convexityOfCommonShapes() {
        let square = [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)]
        #expect(PolygonTools.isConvex(square))
        #expect(PolygonTools.isConvex(square.reversed()))
        #expect(PolygonTools.isConvex(square + [pt(0, 0)]))                   // repeated first vertex
        #expect(PolygonTools.isConvex([pt(0, 0), pt(5, 0), pt(10, 0), pt(10, 10), pt(0, 10)]))  // straight vertex
        let arrow = [pt(0, 0), pt(10, 5), pt(0, 10), pt(3, 5)]
        #expect(!PolygonTools.isConvex(arrow))
        let ell = [pt(0, 0), pt(2, 0), pt(2, 1), pt(1, 1), pt(1, 2), pt(0, 2)]
        #expect(!PolygonTools.isConvex(ell))
        // A pentagram turns the same way at every vertex, but winds twice.
        let star = (0..<5).map { i -> CGPoint in
            let angle = Double(i * 2) / 5 * 2 * Double.pi
            return pt(CGFloat(cos(angle)), CGFloat(sin(angle)))
        }
        #expect(!PolygonTools.isConvex(star))
        #expect(!PolygonTools.isConvex([pt(0, 0), pt(1, 1), pt(2, 2)]))     // no area
        #expect(!PolygonTools.isConvex([pt(0, 0), pt(1, 1)]))
        #expect(!PolygonTools.isConvex([pt(0, 0), pt(10, 0), pt(.nan, 10)]))
        #expect(!PolygonTools.isConvex([pt(0, 0), pt(10, 0), pt(10, 10), pt(10, 5), pt(0, 10)]))  // fold-back
    }

    @Test func simplicity() {
        let square = [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)]
        #expect(PolygonTools.isSimple(square))
        let bowTie = [pt(0, 0), pt(10, 10), pt(10, 0), pt(0, 10)]
        #expect(!PolygonTools.isSimple(bowTie))
        #expect(!PolygonTools.isConvex(bowTie))
        let ell = [pt(0, 0), pt(2, 0), pt(2, 1), pt(1, 1), pt(1, 2), pt(0, 2)]
        #expect(PolygonTools.isSimple(ell))
        // Two triangles sharing the vertex (5, 5): touching counts as self-intersection.
        let figureEight = [pt(0, 0), pt(5, 5), pt(10, 0), pt(10, 10), pt(5, 5), pt(0, 10)]
        #expect(!PolygonTools.isSimple(figureEight))
        let spike = [pt(0, 0), pt(10, 0), pt(10, 10), pt(10, 5), pt(0, 10)]
        #expect(!PolygonTools.isSimple(spike))
        #expect(!PolygonTools.isSimple([pt(0, 0), pt(1, 1), pt(2, 2)]))
        #expect(!PolygonTools.isSimple([pt(0, 0), pt(1, 0), pt(.infinity, 1)]))
        #expect(PolygonTools.isSimple([pt(0, 0), pt(1, 0), pt(1, 0), pt(0, 1), pt(0, 0)]))  // exact repeats ignored
    }

    // MARK: Measures

    @Test func areaAndCentroid() {
        let rect = [pt(0, 0), pt(4, 0), pt(4, 2), pt(0, 2)]
        #expect(PolygonTools.signedArea(rect) == 8)
        #expect(PolygonTools.signedArea(rect.reversed()) == -8)
        #expect(PolygonTools.centroid(rect) == pt(2, 1))
        let triangle = [pt(0, 0), pt(3, 0), pt(0, 3)]
        #expect(PolygonTools.area(triangle) == 4.5)
        #expect(near(PolygonTools.centroid(triangle).x, 1) && near(PolygonTools.centroid(triangle).y, 1))
        // L: a 2×1 bar (centroid (1, 0.5)) plus a 1×1 square (centroid (0.5, 1.5)).
        let ell = [pt(0, 0), pt(2, 0), pt(2, 1), pt(1, 1), pt(1, 2), pt(0, 2)]
        #expect(PolygonTools.area(ell) == 3)
        for shape in [ell, ell.reversed()] {
            let c = PolygonTools.centroid(shape)
            #expect(near(c.x, 2.5 / 3) && near(c.y, 2.5 / 3))
        }
        // Degenerate: the mean of the vertices; nothing: zero.
        #expect(PolygonTools.centroid([pt(0, 0), pt(2, 2), pt(4, 4)]) == pt(2, 2))
        #expect(PolygonTools.centroid([pt(.nan, .nan)]) == .zero)
        #expect(PolygonTools.signedArea([pt(0, 0), pt(1, 0)]) == 0)
    }

    @Test func windingNumbers() {
        let square = [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)]
        #expect(PolygonTools.windingNumber(of: pt(5, 5), in: square) == 1)
        #expect(PolygonTools.windingNumber(of: pt(5, 5), in: square.reversed()) == -1)
        #expect(PolygonTools.windingNumber(of: pt(15, 5), in: square) == 0)
        #expect(PolygonTools.windingNumber(of: pt(.nan, 5), in: square) == 0)
    }

    // MARK: Welding

    @Test func welding() {
        let points = [pt(0, 0), pt(0.05, 0), pt(1, 0), pt(1, 0.04), pt(.nan, 0), pt(0, 0), pt(0.2, 0)]
        #expect(PolygonTools.welded(points, tolerance: 0.1) == [pt(0, 0), pt(1, 0), pt(0.2, 0)])
        #expect(PolygonTools.welded(points, tolerance: 0) == [pt(0, 0), pt(0.05, 0), pt(1, 0), pt(1, 0.04), pt(0.2, 0)])
        #expect(PolygonTools.welded([pt(-0.0, 0), pt(0, 0)], tolerance: 0).count == 1)
        // Boundary is inclusive; points across a grid-cell border are still found.
        #expect(PolygonTools.welded([pt(0.99, 0), pt(1.01, 0)], tolerance: 0.05).count == 1)
        #expect(PolygonTools.welded([pt(0, 0), pt(0.5, 0)], tolerance: 0.5).count == 1)
        // Huge coordinates do not trap on the grid index.
        #expect(PolygonTools.welded([pt(1e300, -1e300), pt(1e300, -1e300), pt(0, 0)], tolerance: 1e-3).count == 2)
        #expect(PolygonTools.welded([pt(1, 1), pt(1, 1)], tolerance: .nan).count == 1)
    }
}
