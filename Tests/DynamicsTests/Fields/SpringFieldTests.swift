import Foundation
import Testing

import Dynamics

/// The spring field's period, and energy conservation of position-dependent fields.
@Suite("FieldBehavior springs and orbits")
struct SpringFieldTests {
    /// The measured period (s) of an item of `side` and `density` released 60 pt from a spring
    /// field of `strength`, and the largest and smallest swing after the first one.
    func oscillation(strength: CGFloat = 1, side: CGFloat = 100, density: CGFloat = 1,
                     seconds: Double = 6) -> (period: Double, maxSwing: Double, minSwing: Double) {
        let field = FieldBehavior.springField()
        field.strength = strength
        field.position = CGPoint(x: 300, y: 200)
        let rig = FieldRig(field, at: CGPoint(x: 360, y: 200), side: side, density: density)
        var samples: [Double] = []
        for _ in 0..<Int(seconds * 60) {
            rig.animator.step()
            samples.append(Double(rig.item.center.x) - 300)
        }
        let tail = samples.dropFirst(samples.count / 4)
        return (meanPeriod(upwardCrossings(samples, dt: 1.0 / 60)), tail.max() ?? 0, -(tail.min() ?? 0))
    }

    @Test func aMassOneItemSwingsIn2πSecondsAtStrengthOne() {
        // k = strength mass/s² (UIKit's 1 N/m): T = 2π·√(m / k).
        let (period, _, _) = oscillation(seconds: 20)
        #expect(abs(period - 2 * .pi) / (2 * .pi) < 0.02)
    }

    @Test(arguments: [(4 * Double.pi * Double.pi, 100.0, 1.0, 1.0), (Double.pi * Double.pi, 100, 1, 2),
                      (4 * Double.pi * Double.pi, 200, 1, 2), (4 * Double.pi * Double.pi, 100, 4, 2),
                      (16 * Double.pi * Double.pi, 100, 1, 0.5)])
    func thePeriodIs2πTimesTheSquareRootOfMassOverStrength(_ strength: Double, _ side: Double, _ density: Double,
                                                           _ expected: Double) {
        // T = 2π·√(m / strength) s; m = density × side² / 10 000.
        let (period, _, _) = oscillation(strength: CGFloat(strength), side: CGFloat(side), density: CGFloat(density),
                                         seconds: 8 * expected)
        #expect(abs(period - expected) / expected < 0.02)
    }

    @Test func anUndampedSpringKeepsItsAmplitude() {
        let (_, maxSwing, minSwing) = oscillation(strength: 4 * .pi * .pi, seconds: 20)
        #expect(abs(maxSwing - 60) < 0.6)
        #expect(abs(minSwing - 60) < 0.6)
    }

    @Test func resistanceDampsTheSpring() {
        let field = FieldBehavior.springField()
        field.strength = 4 * .pi * .pi
        let rig = FieldRig(field, at: CGPoint(x: 60, y: 0))
        rig.material.resistance = 1
        rig.animator.advance(by: 5)
        #expect(abs(rig.item.center.x) < 60 * exp(-2.0))
    }

    @Test func aCircularOrbitUnderInverseSquareGravityKeepsItsRadius() {
        // Strength 10, falloff 2: at 100 pt from the center a = 1000 pt/s², circular speed
        // √(a·r) ≈ 316 pt/s, period ≈ 2 s.
        let sun = FieldBehavior.radialGravityField(position: CGPoint(x: 500, y: 500))
        sun.strength = 10
        sun.falloff = 2
        let speed = (1000.0 * 100).squareRoot()
        let rig = FieldRig(sun, at: CGPoint(x: 600, y: 500), side: 10, velocity: CGPoint(x: 0, y: speed))
        var smallest = Double.infinity, largest = 0.0
        for _ in 0..<(60 * 6) {
            rig.animator.step()
            let r = hypot(Double(rig.item.center.x) - 500, Double(rig.item.center.y) - 500)
            smallest = min(smallest, r)
            largest = max(largest, r)
        }
        #expect(smallest > 99 && largest < 101)
    }
}
