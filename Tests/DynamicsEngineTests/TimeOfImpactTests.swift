import Foundation
import Testing

@testable import DynamicsEngine

/// The whole-shape distance (GJK) and time of impact (conservative advancement) the bullets use,
/// against closed-form answers.
@Suite struct TimeOfImpactTests {
    /// The corners of a `w × h` box centred on the origin of its frame.
    static func box(_ w: Float, _ h: Float) -> [Vec2] {
        [Vec2(-w / 2, -h / 2), Vec2(w / 2, -h / 2), Vec2(w / 2, h / 2), Vec2(-w / 2, h / 2)]
    }

    static func distance(_ a: [Vec2], _ xfA: Transform, _ b: [Vec2], _ xfB: Transform) -> (Float, Vec2) {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                hullDistance(pa.baseAddress!, a.count, xfA, pb.baseAddress!, b.count, xfB)
            }
        }
    }

    /// Two 20 pt squares 50 pt apart centre to centre, side by side: a 30 pt gap along +x. Turned
    /// 45°, the left one reaches 10√2 from its centre: the gap is 40 − 10√2, still along +x. One
    /// point 10 pt above the top face's middle: 10, straight up.
    @Test func distancesBetweenHullsAreTheGaps() {
        let square = Self.box(20, 20)
        let left = Transform(p: Vec2(0, 0), q: .identity), right = Transform(p: Vec2(50, 0), q: .identity)
        let (d, n) = Self.distance(square, left, square, right)
        #expect(abs(d - 30) < 1e-4)
        #expect(abs(n.x - 1) < 1e-5 && abs(n.y) < 1e-5)
        let turned = Transform(p: Vec2(0, 0), q: Rot(angle: .pi / 4))
        let (d2, n2) = Self.distance(square, turned, square, right)
        #expect(abs(d2 - (40 - 10 * Float(2).squareRoot())) < 1e-4)
        #expect(abs(n2.x - 1) < 1e-4 && abs(n2.y) < 1e-4)
        let (d3, n3) = Self.distance([Vec2(0, 0)], Transform(p: Vec2(53, 20), q: .identity), square, right)
        #expect(abs(d3 - 10) < 1e-4)
        #expect(abs(n3.x) < 1e-5 && abs(n3.y + 1) < 1e-5)  // from the point down to the square
    }

    /// Overlapping hulls, and hulls sharing a point, are at distance 0.
    @Test func overlappingHullsAreAtZero() {
        let square = Self.box(20, 20)
        #expect(Self.distance(square, .identity, square, Transform(p: Vec2(15, 5), q: Rot(angle: 0.3))).0 == 0)
        #expect(Self.distance(square, .identity, square, Transform(p: Vec2(20, 20), q: .identity)).0 < 1e-5)
    }

    static func sweep(from c0: Vec2, to c1: Vec2, angle a0: Float = 0, turn: Float = 0) -> BodySweep {
        var body = Body()
        body.center0 = c0
        body.center = c1
        body.rotation0 = Rot(angle: a0)
        body.transform = Transform(p: c1, q: Rot(angle: a0 + turn))
        return BodySweep(body, dt: 1 / 60)
    }

    static func impact(
        _ a: [Vec2], _ ra: Float, _ ma: BodySweep, reachA: Float,
        _ b: [Vec2], _ rb: Float, _ mb: BodySweep, reachB: Float
    ) -> Float? {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                timeOfImpact(
                    pa.baseAddress!, a.count, ra, ma, reachA: reachA,
                    pb.baseAddress!, b.count, rb, mb, reachB: reachB, target: 0.5, tolerance: 0.125)
            }
        }
    }

    /// A 5 pt disc moving 100 pt along +x toward a standing 20 pt square whose face is 50 pt
    /// ahead: the gap of 45 pt is down to the 0.5 pt target at t = 44.5 / 100 (within the
    /// 0.125 pt tolerance: 0.00125 of the step).
    @Test func aDiscMeetsAFaceWhenTheGapCloses() throws {
        let disc = Self.sweep(from: Vec2(0, 0), to: Vec2(100, 0))
        let still = Self.sweep(from: Vec2(60, 0), to: Vec2(60, 0))
        let t = try #require(Self.impact([.zero], 5, disc, reachA: 5, Self.box(20, 20), 0, still, reachB: 15))
        #expect(t <= 0.445 + 1e-5 && t >= 0.445 - 0.00125)
        // moving away, or passing 20 pt above it, it meets nothing
        #expect(
            Self.impact(
                [.zero], 5, Self.sweep(from: .zero, to: Vec2(-100, 0)), reachA: 5,
                Self.box(20, 20), 0, still, reachB: 15) == nil)
        #expect(
            Self.impact(
                [.zero], 5, Self.sweep(from: Vec2(0, 20), to: Vec2(100, 20)), reachA: 5,
                Self.box(20, 20), 0, still, reachB: 15) == nil)
        // touching at the start: 0, the solver's
        #expect(
            Self.impact(
                [.zero], 5, Self.sweep(from: Vec2(44.8, 0), to: Vec2(100, 0)), reachA: 5,
                Self.box(20, 20), 0, still, reachB: 15) == 0)
    }

    /// Both moving: two 10 × 80 bars 100 pt apart closing at 150 pt each way meet when their 90 pt
    /// gap is down to the target: t = 89.5 / 300.
    @Test func twoMovingBodiesMeetHalfWay() throws {
        let bar = Self.box(10, 80)
        let a = Self.sweep(from: Vec2(0, 0), to: Vec2(150, 0))
        let b = Self.sweep(from: Vec2(100, 0), to: Vec2(-50, 0))
        let t = try #require(Self.impact(bar, 0, a, reachA: 41, bar, 0, b, reachB: 41))
        #expect(t <= 89.5 / 300 + 1e-5 && t >= (89.5 - 0.125) / 300)
    }

    /// A turning card's corner: a 64 × 100 card at the origin turning a quarter turn in the step
    /// reaches √(32² + 50²) = 59.4 pt from its centre; a post whose near face is 55 pt away on the
    /// x axis is met by a corner (the inner circle, 32 pt, never reaches it), before the corner
    /// passes the axis (at t = 1 − atan(32/50)/(π/2) ≈ 0.64).
    @Test func aTurningCardsCornerMeetsAPostItsInnerCircleMisses() throws {
        let card = Self.box(64, 100)
        let turning = Self.sweep(from: .zero, to: .zero, turn: .pi / 2)
        let post = Self.sweep(from: Vec2(60, 0), to: Vec2(60, 0))
        let t = try #require(Self.impact(card, 0, turning, reachA: 59.4, Self.box(10, 10), 0, post, reachB: 8))
        #expect(t > 0 && t < 0.64)
        // at that time the card is within the target of the post, not inside it
        let xf = turning.transform(at: t)
        let (d, _) = Self.distance(card, xf, Self.box(10, 10), Transform(p: Vec2(60, 0), q: .identity))
        #expect(d > 0 && d < 0.5 + 0.125 + 1e-3)
    }
}
