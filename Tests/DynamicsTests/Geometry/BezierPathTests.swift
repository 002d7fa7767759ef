import Foundation
import Testing
@testable import Dynamics

@Suite struct BezierPathTests {
    private func near(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool {
        abs(a - b) <= tolerance
    }

    private func near(_ r: CGRect, _ s: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
        near(r.minX, s.minX, tolerance) && near(r.minY, s.minY, tolerance)
            && near(r.width, s.width, tolerance) && near(r.height, s.height, tolerance)
    }

    /// Euclidean distance from (px, py) to the ellipse x²/a² + y²/b² = 1 (Eberly's robust method,
    /// bisection on the Lagrange parameter), independent of the code under test.
    private func distanceToEllipse(a: Double, b: Double, px: Double, py: Double) -> Double {
        // Work in the first quadrant with e0 ≥ e1.
        var e0 = a, e1 = b, y0 = abs(px), y1 = abs(py)
        if e0 < e1 { swap(&e0, &e1); swap(&y0, &y1) }
        if y1 > 0 {
            if y0 > 0 {
                let z0 = y0 / e0, z1 = y1 / e1
                let g = z0 * z0 + z1 * z1 - 1
                guard g != 0 else { return 0 }
                let r0 = (e0 / e1) * (e0 / e1)
                let n0 = r0 * z0
                var s0 = z1 - 1
                var s1 = g < 0 ? 0 : hypot(n0, z1) - 1
                var s = 0.0
                for _ in 0..<2000 {
                    s = (s0 + s1) / 2
                    if s == s0 || s == s1 { break }
                    let ratio0 = n0 / (s + r0), ratio1 = z1 / (s + 1)
                    let value = ratio0 * ratio0 + ratio1 * ratio1 - 1
                    if value > 0 { s0 = s } else if value < 0 { s1 = s } else { break }
                }
                let x0 = r0 * y0 / (s + r0), x1 = y1 / (s + 1)
                return hypot(x0 - y0, x1 - y1)
            }
            return abs(y1 - e1)
        }
        let numerator = e0 * y0, denominator = e0 * e0 - e1 * e1
        if numerator < denominator {
            let ratio = numerator / denominator
            let x0 = e0 * ratio, x1 = e1 * (1 - ratio * ratio).squareRoot()
            return hypot(x0 - y0, x1)
        }
        return abs(y0 - e0)
    }

    /// Distance from p to the segment ab.
    private func distance(_ p: CGPoint, toSegment a: CGPoint, _ b: CGPoint) -> Double {
        let abx = Double(b.x - a.x), aby = Double(b.y - a.y)
        let apx = Double(p.x - a.x), apy = Double(p.y - a.y)
        let lengthSquared = abx * abx + aby * aby
        let t = lengthSquared == 0 ? 0 : min(max((apx * abx + apy * aby) / lengthSquared, 0), 1)
        return hypot(apx - t * abx, apy - t * aby)
    }

    private func segments(of polyline: Polyline) -> [(CGPoint, CGPoint)] {
        let p = polyline.points
        var result = zip(p, p.dropFirst()).map { ($0, $1) }
        if polyline.isClosed, let first = p.first, let last = p.last { result.append((last, first)) }
        return result
    }

    // MARK: Empty

    @Test func emptyPath() {
        let path = BezierPath()
        #expect(path.isEmpty)
        #expect(path.elements.isEmpty)
        #expect(path.bounds.isNull)
        #expect(!path.contains(.zero))
        #expect(path.flattened().isEmpty)
        #expect(path.currentPoint == .zero)
    }

    @Test func drawingWithoutCurrentPointIsIgnored() {
        let path = BezierPath()
        path.addLine(to: CGPoint(x: 1, y: 1))
        path.addCurve(to: CGPoint(x: 2, y: 2), controlPoint1: .zero, controlPoint2: .zero)
        path.close()
        #expect(path.isEmpty)
        path.move(to: CGPoint(x: 4, y: 5))
        #expect(!path.isEmpty)
        #expect(path.bounds == CGRect(x: 4, y: 5, width: 0, height: 0))
    }

    // MARK: Rectangles

    @Test func rectangle() {
        let rect = CGRect(x: 10, y: 20, width: 30, height: 40)
        let path = BezierPath(rect: rect)
        #expect(path.elements == [
            .move(to: CGPoint(x: 10, y: 20)), .line(to: CGPoint(x: 40, y: 20)),
            .line(to: CGPoint(x: 40, y: 60)), .line(to: CGPoint(x: 10, y: 60)), .close,
        ])
        #expect(path.bounds == rect)
        #expect(path.contains(CGPoint(x: 25, y: 40)))
        #expect(path.contains(CGPoint(x: 10.001, y: 59.999)))
        #expect(!path.contains(CGPoint(x: 9.999, y: 40)))
        #expect(!path.contains(CGPoint(x: 25, y: 60.001)))
        let flat = path.flattened()
        #expect(flat == [Polyline(points: [CGPoint(x: 10, y: 20), CGPoint(x: 40, y: 20),
                                           CGPoint(x: 40, y: 60), CGPoint(x: 10, y: 60)], isClosed: true)])
        // UIKit's rectangle runs clockwise on screen: positive shoelace area.
        #expect(PolygonTools.signedArea(flat[0].points) == 1200)
    }

    @Test func nonFiniteRectanglesGiveEmptyPaths() {
        #expect(BezierPath(rect: .null).isEmpty)
        #expect(BezierPath(rect: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)).isEmpty)
        #expect(BezierPath(ovalIn: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1)).isEmpty)
        #expect(BezierPath(rect: CGRect(x: 1e308, y: 0, width: 1e308, height: 1)).isEmpty)  // overflows
        // CGRect.infinite is finite in every coordinate: a huge but usable path.
        let huge = BezierPath(roundedRect: .infinite, cornerRadius: 3)
        #expect(!huge.isEmpty)
        for polyline in huge.flattened() + BezierPath(ovalIn: .infinite).flattened() {
            #expect(polyline.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        }
    }

    // MARK: Ovals

    @Test func oval() {
        let rect = CGRect(x: -50, y: 10, width: 100, height: 60)
        let path = BezierPath(ovalIn: rect)
        #expect(path.elements.first == .move(to: CGPoint(x: 50, y: 40)))
        #expect(path.elements.count == 6)
        #expect(path.elements.last == .close)
        #expect(near(path.bounds, rect))
        #expect(path.contains(CGPoint(x: 0, y: 40)))
        #expect(path.contains(CGPoint(x: 49.5, y: 40)))
        #expect(!path.contains(CGPoint(x: -49, y: 12)))  // inside the rect's corner, outside the oval
        // On the diagonal the ellipse passes through (±50/√2, 40 ± 30/√2) ≈ (35.36, 61.21).
        #expect(path.contains(CGPoint(x: 34.8, y: 60.8)))
        #expect(!path.contains(CGPoint(x: 36, y: 62)))
        // Second element ends at the bottom: clockwise on a y-down screen, as UIKit.
        guard case .curve(let end, _, _) = path.elements[1] else {
            Issue.record("expected a curve")
            return
        }
        #expect(end == CGPoint(x: 0, y: 70))
        #expect(PolygonTools.signedArea(path.flattened()[0].points) > 0)
    }

    @Test func flattenedOvalStaysWithinHalfAPointOfTheTrueEllipse() {
        let a = 1000.0, b = 500.0
        let path = BezierPath(ovalIn: CGRect(x: 100, y: 200, width: 2 * a, height: 2 * b))
        let flat = path.flattened(tolerance: 0.5)
        #expect(flat.count == 1)
        let polyline = flat[0]
        #expect(polyline.isClosed)
        #expect(polyline.points.count > 40 && polyline.points.count < 400)
        var worstVertex = 0.0, worstMidpoint = 0.0
        for (p, q) in segments(of: polyline) {
            worstVertex = max(worstVertex, distanceToEllipse(a: a, b: b, px: Double(p.x) - 1100, py: Double(p.y) - 700))
            let mx = Double(p.x + q.x) / 2 - 1100, my = Double(p.y + q.y) / 2 - 700
            worstMidpoint = max(worstMidpoint, distanceToEllipse(a: a, b: b, px: mx, py: my))
        }
        #expect(worstVertex <= 0.5)
        #expect(worstMidpoint <= 0.5)
        // And the chords are not absurdly short: the midpoints actually use the tolerance budget.
        #expect(worstMidpoint > 0.05)
    }

    @Test(arguments: [0.5, 0.1, 0.02])
    func flattenedCurvesRespectTheTolerance(tolerance: Double) {
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addCurve(to: CGPoint(x: 300, y: 0), controlPoint1: CGPoint(x: 400, y: 250),
                      controlPoint2: CGPoint(x: -100, y: 250))
        path.addQuadCurve(to: CGPoint(x: 300, y: 300), controlPoint: CGPoint(x: 600, y: 150))
        let polyline = path.flattened(tolerance: CGFloat(tolerance))[0]
        #expect(!polyline.isClosed)
        #expect(polyline.points.first == CGPoint(x: 0, y: 0))
        #expect(polyline.points.last == CGPoint(x: 300, y: 300))
        // Sample the true curves densely; every sample must be within tolerance of the polyline.
        var worst = 0.0
        let segs = segments(of: polyline)
        for i in 0...2000 {
            let t = Double(i) / 2000, u = 1 - t
            let cubic = CGPoint(x: 3 * u * u * t * 400 + 3 * u * t * t * -100 + t * t * t * 300,
                                y: 3 * u * u * t * 250 + 3 * u * t * t * 250)
            let quad = CGPoint(x: u * u * 300 + 2 * u * t * 600 + t * t * 300,
                               y: 2 * u * t * 150 + t * t * 300)
            for sample in [cubic, quad] {
                worst = max(worst, segs.map { distance(sample, toSegment: $0.0, $0.1) }.min() ?? .infinity)
            }
        }
        #expect(worst <= tolerance + 1e-9)
    }

    // MARK: Rounded rectangles

    @Test func roundedRectangle() {
        let rect = CGRect(x: 0, y: 0, width: 100, height: 60)
        let path = BezierPath(roundedRect: rect, cornerRadius: 10)
        #expect(path.elements.first == .move(to: CGPoint(x: 10, y: 0)))
        #expect(near(path.bounds, rect))
        #expect(path.contains(CGPoint(x: 50, y: 30)))
        #expect(path.contains(CGPoint(x: 1, y: 15)))     // beside a corner, on the straight edge
        #expect(path.contains(CGPoint(x: 4, y: 4)))      // 8.5 pt from the corner centre (10, 10)
        #expect(!path.contains(CGPoint(x: 2, y: 2)))     // 11.3 pt from the corner centre
        #expect(!path.contains(CGPoint(x: 98, y: 58)))
        #expect(PolygonTools.signedArea(path.flattened()[0].points) > 0)
        // Area of a rounded rectangle: w·h − (4 − π)·r².
        let area = PolygonTools.area(path.flattened(tolerance: 0.001)[0].points)
        #expect(near(area, 6000 - (4 - .pi) * 100, 0.2))
    }

    @Test func roundedRectangleClampsTheRadius() {
        let rect = CGRect(x: 0, y: 0, width: 100, height: 50)
        let stadium = BezierPath(roundedRect: rect, cornerRadius: 1000)  // radius 25
        #expect(near(stadium.bounds, rect))
        #expect(stadium.contains(CGPoint(x: 1, y: 25)))
        #expect(!stadium.contains(CGPoint(x: 3, y: 3)))
        #expect(BezierPath(roundedRect: rect, cornerRadius: 0) == BezierPath(rect: rect))
        #expect(BezierPath(roundedRect: rect, cornerRadius: -5) == BezierPath(rect: rect))
        #expect(BezierPath(roundedRect: rect, cornerRadius: .nan) == BezierPath(rect: rect))
    }

    // MARK: Arcs

    @Test func clockwiseArcSweepsTowardPositiveY() {
        // y down: clockwise from 0 to π/2 passes through the lower right quadrant.
        let path = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(path.elements.first == .move(to: CGPoint(x: 10, y: 0)))
        #expect(path.elements.count == 2)
        #expect(near(path.bounds, CGRect(x: 0, y: 0, width: 10, height: 10)))
        #expect(near(path.currentPoint.x, 0) && near(path.currentPoint.y, 10))
        #expect(path.flattened()[0].points.allSatisfy { $0.x >= -1e-9 && $0.y >= -1e-9 })
    }

    @Test func closedHalfDiscsContainTheRightHalf() {
        // Clockwise from 0 to π passes through (0, 10): the lower half of the screen.
        let lower = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: true)
        lower.close()
        #expect(lower.contains(CGPoint(x: 0, y: 5)))
        #expect(lower.contains(CGPoint(x: 6, y: 7.8)))       // 9.84 pt from the centre
        #expect(!lower.contains(CGPoint(x: 6, y: 8.1)))      // 10.06 pt from the centre
        #expect(!lower.contains(CGPoint(x: 0, y: -5)))
        #expect(near(lower.bounds, CGRect(x: -10, y: 0, width: 20, height: 10)))
        let upper = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        upper.close()
        #expect(upper.contains(CGPoint(x: 0, y: -5)))
        #expect(!upper.contains(CGPoint(x: 0, y: 5)))
        // Clockwise on screen is positive shoelace area; the other way negative.
        #expect(PolygonTools.signedArea(lower.flattened()[0].points) > 0)
        #expect(PolygonTools.signedArea(upper.flattened()[0].points) < 0)
    }

    @Test func counterClockwiseArcTakesTheLongWay() {
        let path = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(path.elements.count == 4)  // move + three quarter turns
        #expect(near(path.bounds, CGRect(x: -10, y: -10, width: 20, height: 20)))
        #expect(near(path.currentPoint.x, 0) && near(path.currentPoint.y, 10))
        // It passes through (0, −10), the top of the screen.
        let points = path.flattened()[0].points
        #expect(points.contains { near($0.x, 0, 1e-6) && near($0.y, -10, 1e-6) })
    }

    @Test func arcDirectionsForNegativeEndAngle() {
        let longWay = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: -.pi / 2, clockwise: true)
        #expect(near(longWay.bounds, CGRect(x: -10, y: -10, width: 20, height: 20)))
        let shortWay = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: -.pi / 2, clockwise: false)
        #expect(near(shortWay.bounds, CGRect(x: 0, y: -10, width: 10, height: 10)))
    }

    @Test func fullAndEmptyArcs() {
        let full = BezierPath(arcCenter: CGPoint(x: 5, y: 5), radius: 10, startAngle: 0, endAngle: 2 * .pi,
                              clockwise: true)
        #expect(full.elements.count == 5)
        #expect(near(full.bounds, CGRect(x: -5, y: -5, width: 20, height: 20)))
        #expect(full.contains(CGPoint(x: 5, y: 5)))  // open, but filled as if closed
        let overFull = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: 7 * .pi, clockwise: true)
        #expect(overFull.elements.count == 5)
        // UIKit: counter-clockwise from 0 to 2π sweeps nothing.
        let nothing = BezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        #expect(nothing.elements == [.move(to: CGPoint(x: 10, y: 0))])
        let same = BezierPath(arcCenter: .zero, radius: 10, startAngle: 1, endAngle: 1, clockwise: true)
        #expect(same.elements.count == 1)
        let bad = BezierPath(arcCenter: .zero, radius: .nan, startAngle: 0, endAngle: 1, clockwise: true)
        #expect(bad.isEmpty)
    }

    @Test func arcAfterAnOpenSubpathIsJoinedByALine() {
        let path = BezierPath()
        path.move(to: CGPoint(x: -20, y: 0))
        path.addArc(withCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: true)
        #expect(path.elements[1] == .line(to: CGPoint(x: 10, y: 0)))
        #expect(path.elements.count == 4)
    }

    // MARK: Curves, bounds, fill rules

    @Test func tightBoundsOfCurves() {
        let quad = BezierPath()
        quad.move(to: .zero)
        quad.addQuadCurve(to: CGPoint(x: 10, y: 0), controlPoint: CGPoint(x: 5, y: 10))
        #expect(near(quad.bounds, CGRect(x: 0, y: 0, width: 10, height: 5)))
        let cubic = BezierPath()
        cubic.move(to: .zero)
        cubic.addCurve(to: CGPoint(x: 10, y: 0), controlPoint1: CGPoint(x: 0, y: 10), controlPoint2: CGPoint(x: 10, y: 10))
        #expect(near(cubic.bounds, CGRect(x: 0, y: 0, width: 10, height: 7.5)))
    }

    @Test func drawingAfterCloseReopensAtTheSubpathStart() {
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 10))
        path.close()
        path.close()  // ignored
        #expect(path.currentPoint == .zero)
        path.addLine(to: CGPoint(x: 5, y: 5))
        #expect(Array(path.elements.suffix(3)) == [.close, .move(to: .zero), .line(to: CGPoint(x: 5, y: 5))])
        let flat = path.flattened()
        #expect(flat.count == 2)
        #expect(flat[0].isClosed && flat[0].points.count == 3)
        #expect(!flat[1].isClosed && flat[1].points == [.zero, CGPoint(x: 5, y: 5)])
    }

    @Test func nonZeroAndEvenOddFillRules() {
        let path = BezierPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        path.append(BezierPath(rect: CGRect(x: 25, y: 25, width: 50, height: 50)))
        let hole = CGPoint(x: 50, y: 50), ring = CGPoint(x: 10, y: 10)
        #expect(path.contains(hole))
        #expect(path.contains(ring))
        path.usesEvenOddFillRule = true
        #expect(!path.contains(hole))
        #expect(path.contains(ring))
        // Non-zero with the inner square reversed also makes a hole.
        let donut = BezierPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        donut.append(BezierPath(rect: CGRect(x: 25, y: 25, width: 50, height: 50)).reversing())
        #expect(!donut.contains(hole))
        #expect(donut.contains(ring))
    }

    @Test func reversing() {
        let path = BezierPath(rect: CGRect(x: 0, y: 0, width: 4, height: 2))
        let reversed = path.reversing()
        #expect(reversed.elements == [
            .move(to: CGPoint(x: 0, y: 2)), .line(to: CGPoint(x: 4, y: 2)),
            .line(to: CGPoint(x: 4, y: 0)), .line(to: .zero), .close,
        ])
        #expect(PolygonTools.signedArea(reversed.flattened()[0].points) == -8)
        let curve = BezierPath()
        curve.move(to: .zero)
        curve.addCurve(to: CGPoint(x: 3, y: 0), controlPoint1: CGPoint(x: 1, y: 1), controlPoint2: CGPoint(x: 2, y: 1))
        #expect(curve.reversing().elements == [
            .move(to: CGPoint(x: 3, y: 0)),
            .curve(to: .zero, control1: CGPoint(x: 2, y: 1), control2: CGPoint(x: 1, y: 1)),
        ])
        #expect(curve.reversing().reversing() == curve)
    }

    @Test func applyingATransform() {
        let path = BezierPath(ovalIn: CGRect(x: 0, y: 0, width: 20, height: 10))
        let moved = path.applying(CGAffineTransform(translationX: 100, y: 50))
        #expect(near(moved.bounds, CGRect(x: 100, y: 50, width: 20, height: 10)))
        let turned = path.copy() as! BezierPath
        turned.apply(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(near(turned.bounds, CGRect(x: -10, y: 0, width: 10, height: 20)))
        // Neither changed the original.
        #expect(near(path.bounds, CGRect(x: 0, y: 0, width: 20, height: 10)))
    }

    // MARK: Robustness

    @Test func nonFinitePointsAreSkipped() {
        let path = BezierPath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addLine(to: CGPoint(x: CGFloat.nan, y: 5))
        path.addCurve(to: CGPoint(x: 0, y: 10), controlPoint1: CGPoint(x: CGFloat.infinity, y: 0), controlPoint2: .zero)
        path.addLine(to: CGPoint(x: 10, y: 10))
        path.close()
        #expect(path.bounds == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(path.flattened() == [Polyline(points: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)],
                                              isClosed: true)])
        #expect(!path.contains(CGPoint(x: CGFloat.nan, y: 1)))
        #expect(path.contains(CGPoint(x: 8, y: 2)))
        let lost = BezierPath()
        lost.move(to: CGPoint(x: CGFloat.nan, y: 0))
        lost.addLine(to: CGPoint(x: 5, y: 5))
        #expect(lost.flattened().isEmpty)
        #expect(lost.bounds.isNull)
        // Absurd tolerances fall back to sane ones instead of looping or allocating without bound.
        let oval = BezierPath(ovalIn: CGRect(x: 0, y: 0, width: 1e9, height: 1e9))
        #expect(oval.flattened(tolerance: 0).count == 1)
        #expect(oval.flattened(tolerance: -.infinity)[0].points.count <= 4 * 4096)
        #expect(oval.flattened(tolerance: .nan)[0].points.count <= 4 * 4096)
    }

    @Test func codableRoundTripAndRepair() throws {
        let path = BezierPath(roundedRect: CGRect(x: 0, y: 0, width: 30, height: 20), cornerRadius: 4)
        path.usesEvenOddFillRule = true
        let data = try JSONEncoder().encode(path)
        #expect(try JSONDecoder().decode(BezierPath.self, from: data) == path)
        // An archive that draws before moving is repaired the way the building methods would.
        let broken = #"{"elements":[{"line":{"to":[1,1]}},{"move":{"to":[0,0]}},{"line":{"to":[2,0]}}]}"#
        let repaired = try JSONDecoder().decode(BezierPath.self, from: Data(broken.utf8))
        #expect(repaired.elements == [.move(to: .zero), .line(to: CGPoint(x: 2, y: 0))])
        #expect(!repaired.usesEvenOddFillRule)
    }
}
