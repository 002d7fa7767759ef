import Dynamics
import Foundation
import Testing

// Issue 16, "Undamped springs keep their energy": attachments tested against the closed-form
// oscillators, through the public API only.
//
// The animator runs 4 sub-steps of h = 1/240 s per 1/60 s step. A spring of frequency f is
// integrated with a symplectic (semi-implicit) Euler step while h·ω ≤ 1 (ω = 2πf), and its damping
// makes each sub-step shrink the oscillation by exactly e^{−ζωh} (see Attachments.md). So the
// tolerances below come from that scheme:
// - undamped: the discrete oscillation keeps its amplitude (its shadow energy is conserved; the
//   amplitude of the position wobbles by O(h²ω²) ≈ 3·10⁻³ at 2 Hz) and its frequency is
//   acos(1 − h²ω²/2)/h, high by h²ω²/24 ≈ 10⁻⁴ at 2 Hz;
// - damped: the envelope decays at exactly ζω; the frequency is ω√(1−ζ²) to first order, off by
//   about ζωh/(2(1−ζ²)) relative (1.8 % for ζ = 0.6, f = 1.5 Hz);
// - measurement: positions are sampled once a step (60 Hz); zero crossings are interpolated
//   linearly (exact to third order at a crossing of a sine) and peaks parabolically.

/// One item on a spring to a fixed anchor, sampled once a step.
private struct SpringRun {
    /// Signed stretch along the starting direction (pt), one sample per 1/60 s step.
    var stretch: [Double] = []
    /// Speed (pt/s) once a step.
    var speed: [Double] = []
    var allFinite = true
}

private let dt = 1.0 / 60

/// Hangs a 40 pt square on an anchor attachment of `frequency` and `damping`, rest length
/// `length`, pulled `stretch` points past it along +x, no gravity; runs `seconds`.
private func runSpring(frequency: Double, damping: Double, length: Double = 150, stretch: Double = 40,
                       seconds: Double = 10) -> SpringRun {
    let animator = DynamicAnimator()
    let item = BasicDynamicItem(center: CGPoint(x: length + stretch, y: 0), size: CGSize(width: 40, height: 40))
    let spring = AttachmentBehavior(item: item, attachedToAnchor: .zero)
    spring.frequency = CGFloat(frequency)
    spring.damping = CGFloat(damping)
    spring.length = CGFloat(length)
    let probe = DynamicItemBehavior(items: [item])
    animator.addBehavior(spring)
    animator.addBehavior(probe)
    var run = SpringRun()
    for _ in 0..<Int((seconds / dt).rounded()) {
        animator.step()
        let c = item.center
        // signed: along +x (the item stays on the x axis, through the anchor when length is 0)
        run.stretch.append((c.x >= 0 ? 1 : -1) * hypot(Double(c.x), Double(c.y)) - length)
        let v = probe.linearVelocity(for: item)
        run.speed.append(hypot(Double(v.x), Double(v.y)))
        if !c.x.isFinite || !c.y.isFinite { run.allFinite = false }
    }
    return run
}

/// Upward zero crossings (s), interpolated linearly between samples `dt` apart (sample k at (k+1)·dt).
private func crossings(_ x: [Double]) -> [Double] {
    var t: [Double] = []
    for k in 1..<x.count where x[k - 1] < 0 && x[k] >= 0 {
        t.append(Double(k) * dt + (-x[k - 1] / (x[k] - x[k - 1])) * dt)
    }
    return t
}

/// Local maxima of |x|: (time s, value), refined by a parabola through the three samples.
private func peaks(_ x: [Double]) -> [(Double, Double)] {
    var out: [(Double, Double)] = []
    let a = x.map(abs)
    for k in 1..<(a.count - 1) where a[k] > a[k - 1] && a[k] >= a[k + 1] {
        let (y0, y1, y2) = (a[k - 1], a[k], a[k + 1])
        let den = y0 - 2 * y1 + y2
        let off = den != 0 ? 0.5 * (y0 - y2) / den : 0
        out.append((Double(k + 1) * dt + off * dt, y1 - 0.25 * (y0 - y2) * off))
    }
    return out
}

/// Mean frequency (Hz) from the first to the last upward crossing.
private func frequency(_ x: [Double]) -> Double {
    let t = crossings(x)
    guard t.count >= 2 else { return .nan }
    return Double(t.count - 1) / (t.last! - t.first!)
}

/// Least-squares slope of ln(peak) against time: the decay rate (1/s).
private func decayRate(_ p: [(Double, Double)]) -> Double {
    let n = Double(p.count)
    let mt = p.map(\.0).reduce(0, +) / n, ml = p.map { log($0.1) }.reduce(0, +) / n
    var num = 0.0, den = 0.0
    for (t, v) in p { num += (t - mt) * (log(v) - ml); den += (t - mt) * (t - mt) }
    return -num / den
}

@Suite("Spring energy (issue 16)")
struct SpringEnergyTests {
    @Test func measure() {
        let r = runSpring(frequency: 2, damping: 0)
        let p = peaks(r.stretch)
        print("undamped 2 Hz: first peak \(p.first!.1) last \(p.last!.1) freq \(frequency(r.stretch))")
    }
}
