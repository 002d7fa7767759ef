import Foundation
import Testing
@testable import Dynamics

@Suite struct CGAffineTransformTests {
    private func near(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-12) -> Bool {
        abs(a - b) <= tolerance
    }

    private func near(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat, _ tolerance: CGFloat = 1e-12) -> Bool {
        near(p.x, x, tolerance) && near(p.y, y, tolerance)
    }

    private func near(_ t: CGAffineTransform, _ u: CGAffineTransform, _ tolerance: CGFloat = 1e-12) -> Bool {
        near(t.a, u.a, tolerance) && near(t.b, u.b, tolerance) && near(t.c, u.c, tolerance)
            && near(t.d, u.d, tolerance) && near(t.tx, u.tx, tolerance) && near(t.ty, u.ty, tolerance)
    }

    @Test func identityLeavesPointsAlone() {
        let t = CGAffineTransform.identity
        #expect(t.isIdentity)
        #expect(t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && t.tx == 0 && t.ty == 0)
        #expect(CGPoint(x: 3, y: -7).applying(t) == CGPoint(x: 3, y: -7))
        #expect(!CGAffineTransform(translationX: 1, y: 0).isIdentity)
        // A rotation by 0 has c == -0.0, which still equals the identity.
        #expect(CGAffineTransform(rotationAngle: 0).isIdentity)
    }

    @Test func rotationByQuarterTurnMapsXAxisToYAxis() {
        let t = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(near(t.a, 0) && near(t.b, 1) && near(t.c, -1) && near(t.d, 0))
        #expect(near(CGPoint(x: 1, y: 0).applying(t), 0, 1))
        #expect(near(CGPoint(x: 0, y: 1).applying(t), -1, 0))
        // π/6: x' = cos·x − sin·y, y' = sin·x + cos·y for (2, 4).
        let s = CGAffineTransform(rotationAngle: .pi / 6)
        let h = CGFloat(3).squareRoot()
        #expect(near(CGPoint(x: 2, y: 4).applying(s), h - 2, 1 + 2 * h))
    }

    @Test func translationAndScale() {
        #expect(CGPoint(x: 1, y: 2).applying(CGAffineTransform(translationX: 10, y: 20)) == CGPoint(x: 11, y: 22))
        #expect(CGPoint(x: 1, y: 2).applying(CGAffineTransform(scaleX: 3, y: -2)) == CGPoint(x: 3, y: -4))
        let general = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        // x' = a·x + c·y + tx = 1·7 + 3·8 + 5, y' = b·x + d·y + ty = 2·7 + 4·8 + 6
        #expect(CGPoint(x: 7, y: 8).applying(general) == CGPoint(x: 36, y: 52))
    }

    @Test func concatenatingAppliesSelfFirst() {
        let move = CGAffineTransform(translationX: 10, y: 0)
        let turn = CGAffineTransform(rotationAngle: .pi / 2)
        // Translate to (10, 0), then rotate to (0, 10).
        #expect(near(CGPoint.zero.applying(move.concatenating(turn)), 0, 10))
        // Rotate the origin (no-op), then translate.
        #expect(near(CGPoint.zero.applying(turn.concatenating(move)), 10, 0))
        let m1 = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let m2 = CGAffineTransform(a: 7, b: 8, c: 9, d: 10, tx: 11, ty: 12)
        // Row-vector product m1 × m2, by hand.
        #expect(m1.concatenating(m2) == CGAffineTransform(a: 25, b: 28, c: 57, d: 64, tx: 100, ty: 112))
    }

    @Test func rotatedTranslatedScaledApplyTheNewStepFirst() {
        let move = CGAffineTransform(translationX: 10, y: 0)
        // rotated(by:) rotates first: (1, 0) → (0, 1) → (10, 1).
        #expect(near(CGPoint(x: 1, y: 0).applying(move.rotated(by: .pi / 2)), 10, 1))
        #expect(near(move.rotated(by: 0.3), CGAffineTransform(rotationAngle: 0.3).concatenating(move)))
        // translatedBy translates first: (0, 0) → (10, 0) → rotated to (0, 10).
        let turn = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(near(CGPoint.zero.applying(turn.translatedBy(x: 10, y: 0)), 0, 10))
        // scaledBy scales first: (1, 1) → (2, 3) → (7, 8).
        let scaled = CGAffineTransform(translationX: 5, y: 5).scaledBy(x: 2, y: 3)
        #expect(scaled == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 5, ty: 5))
        #expect(CGPoint(x: 1, y: 1).applying(scaled) == CGPoint(x: 7, y: 8))
    }

    @Test func invertedRoundTrips() {
        let simple = CGAffineTransform(a: 2, b: 0, c: 0, d: 4, tx: 6, ty: 8)
        #expect(simple.inverted() == CGAffineTransform(a: 0.5, b: 0, c: 0, d: 0.25, tx: -3, ty: -2))
        let t = CGAffineTransform(translationX: 3, y: -4).rotated(by: 0.7).scaledBy(x: 2, y: 0.5)
        #expect(near(t.concatenating(t.inverted()), .identity))
        #expect(near(t.inverted().concatenating(t), .identity))
        let p = CGPoint(x: 12.5, y: -3.25)
        #expect(near(p.applying(t).applying(t.inverted()), p.x, p.y, 1e-12))
    }

    @Test func singularTransformInvertsToItself() {
        let flat = CGAffineTransform(scaleX: 0, y: 1)
        #expect(flat.inverted() == flat)
        let zero = CGAffineTransform()
        #expect(zero.inverted() == zero)
        #expect(!zero.isIdentity)
    }

    @Test func sizeAndRectApplying() {
        let turn = CGAffineTransform(rotationAngle: .pi / 2)
        let size = CGSize(width: 10, height: 20).applying(turn)
        #expect(near(size.width, -20) && near(size.height, 10))
        let rect = CGRect(x: 0, y: 0, width: 10, height: 20).applying(turn)
        #expect(near(rect.minX, -20) && near(rect.minY, 0) && near(rect.width, 20) && near(rect.height, 10))
        let moved = CGRect(x: 1, y: 2, width: 3, height: 4).applying(CGAffineTransform(translationX: 10, y: 10))
        #expect(moved == CGRect(x: 11, y: 12, width: 3, height: 4))
    }

    @Test func codableUsesApplesArrayFormat() throws {
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let data = try JSONEncoder().encode(t)
        #expect(String(decoding: data, as: UTF8.self) == "[1,2,3,4,5,6]")
        #expect(try JSONDecoder().decode(CGAffineTransform.self, from: data) == t)
    }
}

@Suite struct CGVectorTests {
    private func near(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-12) -> Bool {
        abs(a - b) <= tolerance
    }

    @Test func zeroAndCodable() throws {
        #expect(CGVector.zero == CGVector(dx: 0, dy: 0))
        let v = CGVector(dx: 1.5, dy: -2)
        let data = try JSONEncoder().encode(v)
        #expect(String(decoding: data, as: UTF8.self) == "[1.5,-2]")
        #expect(try JSONDecoder().decode(CGVector.self, from: data) == v)
    }

    @Test func polarHelpers() {
        let down = CGVector(dx: 0, dy: 2)
        #expect(near(down.angle, .pi / 2))
        #expect(down.magnitude == 2)
        #expect(CGVector(dx: 3, dy: 4).magnitude == 5)
        #expect(CGVector.zero.angle == 0)
        #expect(CGVector.zero.magnitude == 0)
        let left = CGVector(angle: .pi, magnitude: 3)
        #expect(near(left.dx, -3) && near(left.dy, 0))
        let back = CGVector(angle: 0, magnitude: -2)
        #expect(back == CGVector(dx: -2, dy: 0))
    }
}
