// Springs and rods keep their energy: an attachment with damping 0 is an undamped oscillator, a
// rigid rod under gravity an ideal pendulum. Expectations are the analytic ones: x(t) = A cos(ωt)
// for the spring (frequency f = ω/2π, amplitude A kept), A·e^{−ζωt} and frequency f·√(1 − ζ²) for a
// damped one, and a pendulum's period 2π√(L/g)·(1 + θ₀²/16) with its amplitude kept.
//
// Step: 1/60 s, 4 sub-steps (h = 1/240 s). A spring integrated as a force once per sub-step
// (symplectic Euler) keeps a nearby energy exactly: released from rest at A, the displacement
// stays within A/√(1 − (h·ω/2)²) (its invariant ellipse is slightly tilted), and the frequency is
// high by (h·ω)²/24 — 0.03 % and 0.01 % at 2 Hz. The tolerances below come from those.
import Dynamics
import Foundation
import Testing

@Suite("Springs and rods keep their energy")
struct SpringEnergyTests {
    /// An item on a spring to an anchor, no gravity, pulled `amplitude` pt along the spring and
    /// released; the item's displacement from the rest length, every step (60 Hz).
    func springTrace(frequency: CGFloat, damping: CGFloat, amplitude: CGFloat = 40, length: CGFloat = 100,
                     seconds: Double, size: CGFloat = 40) -> [CGFloat] {
        let animator = DynamicAnimator()
        let anchor = CGPoint(x: 0, y: 0)
        let item = BasicDynamicItem(center: CGPoint(x: 0, y: length + amplitude), size: CGSize(width: size, height: size))
        let spring = AttachmentBehavior(item: item, attachedToAnchor: anchor)
        spring.length = length
        spring.frequency = frequency
        spring.damping = damping
        animator.addBehavior(spring)
        var trace: [CGFloat] = []
        for _ in 0..<Int(seconds * 60) {
            animator.step()
            trace.append(hypot(item.center.x - anchor.x, item.center.y - anchor.y) - length)
        }
        return trace
    }

    /// The largest |x| over the last `window` seconds of a 60 Hz trace.
    func amplitude(_ trace: [CGFloat], lastSeconds window: Double = 1) -> CGFloat {
        trace.suffix(Int(window * 60)).map(abs).max() ?? 0
    }

    /// The frequency from the upward zero crossings (interpolated linearly), in Hz.
    func measuredFrequency(_ trace: [CGFloat], around level: CGFloat = 0) -> Double {
        var crossings: [Double] = []
        for k in 1..<trace.count where trace[k - 1] < level && trace[k] >= level {
            let f = Double((level - trace[k - 1]) / (trace[k] - trace[k - 1]))
            crossings.append((Double(k - 1) + f) / 60)
        }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) / (crossings.last! - crossings.first!)
    }

    /// The local maxima of a trace above `level`.
    func peaks(_ trace: [CGFloat], above level: CGFloat = 0) -> [CGFloat] {
        var result: [CGFloat] = []
        for k in 1..<(trace.count - 1) {
            let x = trace[k]
            if x > level && x >= trace[k - 1] && x > trace[k + 1] { result.append(x) }
        }
        return result
    }

    @Test func anUndampedTwoHertzSpringKeepsItsAmplitudeForTenSeconds() {
        let trace = springTrace(frequency: 2, damping: 0, seconds: 10)
        #expect(amplitude(trace) >= 0.9 * 40)
        // it never gains energy: the displacement stays on the scheme's invariant ellipse
        #expect(trace.map(abs).max()! <= 40 * ellipseBound(frequency: 2) * 1.001)
        // 2 Hz, high by (h·ω)²/24 = 0.01 %; the crossings' interpolation adds less than 0.1 %
        #expect(abs(measuredFrequency(trace) - 2) < 2 * 0.001)
    }

    @Test(arguments: [0.1, 0.3] as [CGFloat])
    func aDampedSpringDecaysAtZetaOmega(zeta: CGFloat) {
        let trace = springTrace(frequency: 1, damping: zeta, seconds: 6)
        let p = peaks(trace, above: 0.5)
        #expect(p.count >= 2)
        guard p.count >= 2 else { return }
        // one period apart: the ratio is e^{−2πζ/√(1−ζ²)}; the sampled peaks are within (ωΔt)²/8
        // = 0.14 % of the true ones and the implicit damping's error is ζ·ω·h < 0.1 %
        let expected = exp(-2 * .pi * zeta / (1 - zeta * zeta).squareRoot())
        #expect(abs(p[1] / p[0] - expected) < 0.01)
        let damped = (1 - Double(zeta * zeta)).squareRoot()
        #expect(abs(measuredFrequency(trace) - damped) < 0.01)
    }

    /// Stiff springs stay stable: up to 38 Hz (h·ω ≤ 1) the spring is integrated as a force, beyond
    /// it with the soft step, which is stable for any stiffness; neither may gain energy or blow up.
    @Test(arguments: [30, 60, 1000] as [CGFloat])
    func stiffSpringsStayBounded(frequency: CGFloat) {
        let trace = springTrace(frequency: frequency, damping: 0, amplitude: 10, seconds: 3)
        #expect(!trace.contains { !$0.isFinite })
        // 30 Hz: the explicit spring's ellipse (h·ω = 0.79: 8.7 %); 60 Hz and more: the soft step
        // only loses energy
        #expect(trace.map(abs).max()! <= 10 * ellipseBound(frequency: min(frequency, 38)) * 1.001)
    }

    /// 1/√(1 − (h·ω/2)²) for h = 1/240 s: how far past its release point an explicit undamped
    /// spring's displacement swings.
    func ellipseBound(frequency: CGFloat) -> CGFloat {
        let half = 2 * .pi * frequency / 240 / 2
        return 1 / (1 - half * half).squareRoot()
    }

    /// An item on a rigid rod of `length` pt from an anchor, under gravity 1 (1 000 pt/s²), released
    /// at `angle` rad from the vertical; its angle every step.
    func pendulumTrace(length: CGFloat = 200, angle: CGFloat, seconds: Double) -> [CGFloat] {
        let animator = DynamicAnimator()
        let item = BasicDynamicItem(center: CGPoint(x: length * sin(angle), y: length * cos(angle)),
                                    size: CGSize(width: 20, height: 20))
        animator.addBehavior(AttachmentBehavior(item: item, attachedToAnchor: .zero))
        animator.addBehavior(GravityBehavior(items: [item]))
        var trace: [CGFloat] = []
        for _ in 0..<Int(seconds * 60) {
            animator.step()
            trace.append(atan2(item.center.x, item.center.y))
        }
        return trace
    }

    @Test(arguments: [0.3, 1.0] as [CGFloat])
    func aPendulumOnARigidRodKeepsItsAmplitudeAndPeriod(angle: CGFloat) {
        let trace = pendulumTrace(angle: angle, seconds: 10)
        #expect(amplitude(trace) >= 0.9 * angle)
        #expect(trace.map(abs).max()! <= angle * 1.01)
        // T = 2π√(L/g)·(1 + θ₀²/16 + 11θ₀⁴/3072): the series is within 0.05 % at 1 rad
        let theta = Double(angle)
        let period = 2 * .pi * (200.0 / 1000).squareRoot() * (1 + theta * theta / 16 + 11 * pow(theta, 4) / 3072)
        #expect(abs(measuredFrequency(trace) * period - 1) < 0.005)
    }
}
