import Foundation
import DynamicsEngine
import Testing

/// The solver's own atan2 against the double-precision one, around whole circles.
@Suite struct MathTests {
    /// Every direction on circles from tiny to huge: within the stated 5·10⁻⁷ rad of atan2 in
    /// Double (the fit's error, Float rounding and `Float.pi`'s own error; about 2 ulps of π), and in [−π, π].
    @Test(arguments: [Float(1e-6), 1, 1_000, 1e20])
    func polynomialAtan2MatchesAtan2AroundTheCircle(radius: Float) {
        var worst = 0.0
        let n = 100_003
        for k in 0..<n {
            let a = -Double.pi + 2 * Double.pi * Double(k) / Double(n)
            let y = Float(Double(radius) * sin(a)), x = Float(Double(radius) * cos(a))
            let got = polynomialAtan2(y, x)
            #expect(abs(got) <= Float.pi)
            worst = max(worst, abs(Double(got) - atan2(Double(y), Double(x))))
        }
        #expect(worst <= 5e-7)
    }

    @Test func polynomialAtan2OnTheAxesAndDiagonals() {
        #expect(polynomialAtan2(0, 0) == 0)
        #expect(polynomialAtan2(0, 1) == 0)
        #expect(polynomialAtan2(0, -1) == Float.pi)
        #expect(abs(polynomialAtan2(1, 0) - Float.pi / 2) <= 5e-7)
        #expect(abs(polynomialAtan2(-1, 0) + Float.pi / 2) <= 5e-7)
        #expect(abs(polynomialAtan2(1, 1) - Float.pi / 4) <= 5e-7)
        #expect(abs(polynomialAtan2(-1, -1) + 3 * Float.pi / 4) <= 5e-7)
        // odd in y
        for y in stride(from: Float(-3), through: 3, by: 0.37) {
            #expect(polynomialAtan2(-y, 0.8) == -polynomialAtan2(y, 0.8))
        }
    }

    @Test func polynomialAtan2PassesNaNThrough() {
        #expect(polynomialAtan2(.nan, 1).isNaN)
        #expect(polynomialAtan2(1, .nan).isNaN)
        #expect(polynomialAtan2(.nan, .nan).isNaN)
    }

    /// The joints' angle: b's angle minus a's, wrapped into [−π, π].
    @Test func relativeAngleIsTheWrappedDifference() {
        for a in stride(from: Float(-3), through: 3, by: 0.5) {
            for b in stride(from: Float(-3), through: 3, by: 0.25) {
                let got = relativeAngle(Rot(angle: a), Rot(angle: b))
                let want = unwindAngle(b - a)
                // the cosines and sines in Float carry ~1e-7 of their own
                #expect(abs(unwindAngle(got - want)) <= 1e-6)
            }
        }
    }
}
