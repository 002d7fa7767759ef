import Foundation
import DynamicsEngine
import Testing

@Suite struct MotionTests {
    /// Semi-implicit Euler over N equal sub-steps h gives y = ½ g t² (1 + 1/N) exactly (velocity is
    /// updated before position in each sub-step); the continuous answer is its limit.
    @Test func ballisticFlightMatchesClosedForm() {
        let w = makeWorld(gravity: Vec2(0, 1000))
        let b = addCircle(w, at: .zero, radius: 10)
        w.setLinearVelocity(b, Vec2(300, -400))
        run(w, steps: 60)
        let t: Float = 1, n: Float = 240
        let p = w.position(b)
        #expect(abs(p.x - 300 * t) < 0.01)
        let expectedY = -400 * t + 0.5 * 1000 * t * t * (1 + 1 / n)
        #expect(abs(p.y - expectedY) < 0.01)
        #expect(abs(w.linearVelocity(b).y - (-400 + 1000 * t)) < 0.01)
        // and within 0.5 % of the continuous closed form
        #expect(abs(p.y - (-400 * t + 500 * t * t)) < 0.005 * 500)
    }

    @Test func bounceWithRestitutionReachesESquaredH() {
        for e: Float in [0.5, 0.8] {
            let w = makeWorld(sleep: false)
            addBox(w, .static, at: Vec2(0, 50), half: Vec2(1000, 50), restitution: 0)
            let h: Float = 300
            let r: Float = 10
            let b = addCircle(w, at: Vec2(0, -h - r), radius: r, restitution: e)
            // fall, bounce, record the apex of the first bounce
            var bounced = false
            var apex: Float = 0
            for _ in 0..<240 {
                w.step(dt: 1.0 / 60, substeps: 4)
                let v = w.linearVelocity(b).y
                if !bounced && v < 0 && w.position(b).y > -h { bounced = true }
                if bounced { apex = max(apex, -(w.position(b).y + r)) }
                if bounced && v > 0 { break }
            }
            // e² h, with the small losses of a discrete step: within 5 % of h·e² 
            let expected = e * e * h
            #expect(abs(apex - expected) < 0.05 * expected, "e = \(e): apex \(apex), expected \(expected)")
        }
    }

    @Test(arguments: [(Float(0.7), true), (Float(0.3), false)])
    func boxOnSlope(mu: Float, stays: Bool) {
        let w = makeWorld(sleep: false)
        let theta = Float.pi / 6
        // a slope rising to the left: surface normal (−sin, −cos) in y-down coordinates
        addBox(w, .static, at: .zero, half: Vec2(3000, 20), angle: theta, friction: mu)
        let q = Rot(angle: theta)
        let up = q.rotate(Vec2(0, -1))
        let start = q.rotate(Vec2(0, 0)) + (20 + 25) * up
        let b = addBox(w, at: start, half: Vec2(25, 25), angle: theta, friction: mu)
        run(w, steps: 30)   // settle contact
        let p0 = w.position(b)
        let v0 = w.linearVelocity(b)
        run(w, steps: 60)
        let p1 = w.position(b)
        let g: Float = 1000
        if stays {
            #expect(distance(p0, p1) < 1, "moved \(distance(p0, p1)) pt")
        } else {
            let downhill = q.rotate(Vec2(1, 0))
            let a = g * (sinf(theta) - mu * cosf(theta))
            let v1 = w.linearVelocity(b)
            let measured = dot(v1 - v0, downhill) / 1.0
            #expect(abs(measured - a) < 0.02 * a, "a = \(measured), expected \(a)")
        }
    }
}
