import Foundation
import DynamicsEngine
import Testing

/// No tunnelling: small, fast bodies fired at thin obstacles stop on the near side.
///
/// Every obstacle's near face is the line x = `face` (x grows away from the shooter). A 5 pt ball at
/// 10 000 pt/s moves 167 pt a step, 33 times its own radius, so without the continuous pass it jumps
/// straight over a 2 pt wall. Each shot is aimed so that, stepped discretely, the centre would cross
/// the face halfway through a step: the last discrete position before the face is then ≥ 40 pt away
/// (angles up to 60°), far beyond the speculative distance, so only the sweep can stop it.
@Suite struct ContinuousTests {
    enum Obstacle: String, CaseIterable, CustomTestStringConvertible {
        case segment, thinStaticBox, thinKinematicBox
        var testDescription: String { rawValue }
    }

    static let dt: Float = 1.0 / 60
    /// Speed of the kinematic wall toward the shooter (pt/s).
    static let wallSpeed: Float = 60

    /// Builds the obstacle (near face at x = 0 at time 0) and returns a function giving the near
    /// face's x at a time.
    static func addObstacle(_ w: World, _ kind: Obstacle) -> (Float) -> Float {
        switch kind {
        case .segment:
            addSegment(w, from: Vec2(0, -5000), to: Vec2(0, 5000))
            return { _ in 0 }
        case .thinStaticBox:
            addBox(w, .static, at: Vec2(1, 0), half: Vec2(1, 5000))
            return { _ in 0 }
        case .thinKinematicBox:
            let b = addBox(w, .kinematic, at: Vec2(1, 0), half: Vec2(1, 5000))
            w.setLinearVelocity(b, Vec2(-wallSpeed, 0))
            return { t in -wallSpeed * t }
        }
    }

    /// Seeded angles of incidence in [−60°, 60°] (rad), plus head-on.
    static func angles(seed: UInt64, count: Int) -> [Float] {
        var rng = SplitMix64(seed: seed)
        return [0] + (0..<count).map { _ in uniform(-Float.pi / 3 ... Float.pi / 3, &rng) }
    }

    /// Start point for a shot along `dir` at `speed` whose centre would reach x = 0 after 2.5 steps.
    static func start(dir: Vec2, speed: Float) -> Vec2 { -(2.5 * speed * dt) * dir }

    struct Shot {
        /// Largest x of the body's centre relative to the near face over the run (negative: never reached it).
        var maxCentre: Float = -.greatestFiniteMagnitude
        /// Largest x of any point of the body relative to the near face once the run is over.
        var finalReach: Float = 0
        var finalNormalSpeed: Float = 0
        var errors: [String] = []
    }

    static func fire(_ kind: Obstacle, ball: Bool, speed: Float, angle: Float, continuous: Bool = true, steps: Int = 40) -> Shot {
        var d = WorldDef()
        d.gravity = .zero
        d.enableSleep = false
        d.enableContinuous = continuous
        d.validate = true
        let w = World(def: d)
        let face = addObstacle(w, kind)
        let dir = Vec2(cosf(angle), sinf(angle))
        let p0 = start(dir: dir, speed: speed)
        let body: BodyID
        if ball {
            body = addCircle(w, at: p0, radius: 5)
        } else {
            // a 10 pt box, turned by the angle of incidence so it arrives corner or edge first
            body = addBox(w, at: p0, half: Vec2(5, 5), angle: 0.7 * angle)
        }
        w.setLinearVelocity(body, speed * dir)
        var shot = Shot()
        for _ in 0..<steps {
            w.step(dt: dt, substeps: 4)
            if shot.errors.isEmpty { shot.errors = w.validationErrors }
            let t = Float(w.stepCount) * dt
            shot.maxCentre = max(shot.maxCentre, w.position(body).x - face(t))
        }
        let t = Float(w.stepCount) * dt
        let shape = w.shapes(of: body)[0]
        let outline = w.outline(shape)
        shot.finalReach = outline.points.map { $0.x + outline.radius }.max()! - face(t)
        shot.finalNormalSpeed = w.linearVelocity(body).x - (kind == .thinKinematicBox ? -wallSpeed : 0)
        return shot
    }

    @Test(arguments: Obstacle.allCases)
    func ballAt10000PointsPerSecondDoesNotTunnel(_ kind: Obstacle) {
        for angle in Self.angles(seed: 0xC0FFEE, count: 6) {
            let shot = Self.fire(kind, ball: true, speed: 10_000, angle: angle)
            let deg = angle * 180 / .pi
            #expect(shot.errors.isEmpty, "\(kind) at \(deg)°: \(shot.errors)")
            // the centre never reaches the face, let alone the far side
            #expect(shot.maxCentre < 0, "\(kind) at \(deg)°: centre reached x = \(shot.maxCentre) pt past the face")
            // and the ball ends resting against the near face: no deeper than the linear slop (0.5 pt),
            // no longer moving into it
            #expect(shot.finalReach < 0.5, "\(kind) at \(deg)°: ball reaches \(shot.finalReach) pt into the wall")
            #expect(abs(shot.finalNormalSpeed) < 1, "\(kind) at \(deg)°: normal speed \(shot.finalNormalSpeed) pt/s")
        }
    }

    @Test(arguments: Obstacle.allCases)
    func smallBoxAt8000PointsPerSecondDoesNotTunnel(_ kind: Obstacle) {
        for angle in Self.angles(seed: 0xB0C5, count: 6) {
            let shot = Self.fire(kind, ball: false, speed: 8_000, angle: angle)
            let deg = angle * 180 / .pi
            #expect(shot.errors.isEmpty, "\(kind) at \(deg)°: \(shot.errors)")
            #expect(shot.maxCentre < 0, "\(kind) at \(deg)°: centre reached x = \(shot.maxCentre) pt past the face")
            #expect(shot.finalReach < 0.5, "\(kind) at \(deg)°: box reaches \(shot.finalReach) pt into the wall")
            // e = 0 stops the contact point, not the box: struck corner first it spins up (≈ 800 rad/s
            // here) and may roll off its corners away from the wall, but never keeps moving into it
            #expect(shot.finalNormalSpeed < 1, "\(kind) at \(deg)°: still moving into the wall at \(shot.finalNormalSpeed) pt/s")
        }
    }

    /// The control: the same shots with the continuous pass switched off go through the segment, so
    /// the tests above would see a regression.
    @Test func withoutContinuousTheBallCrossesTheSegment() {
        for angle in Self.angles(seed: 0xC0FFEE, count: 6) {
            let shot = Self.fire(.segment, ball: true, speed: 10_000, angle: angle, continuous: false, steps: 5)
            #expect(shot.finalReach > 100, "at \(angle * 180 / .pi)°: ball ended \(shot.finalReach) pt past the face")
        }
    }
}
