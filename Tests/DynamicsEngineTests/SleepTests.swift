import DynamicsEngine
import Testing

/// Sleeping: a body at rest sleeps after `timeToSleep`, wakes when anything disturbs it, and the
/// world's bookkeeping validates after every step throughout.
@Suite struct SleepTests {
    static let dt: Float = 1.0 / 60
    static let half: Float = 25
    /// The engine's sleep speed (m/s × 100 pt/m) and time: WorldDef's defaults.
    static let sleepSpeed = WorldDef().sleepThresholdMeters * 100
    static let timeToSleep = WorldDef().timeToSleep

    /// A ground whose top is y = 0 and a 50 pt box dropped from 150 pt above it.
    static func dropScene() -> (World, BodyID) {
        let w = makeWorld(sleep: true, validate: true)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(1000, 50))
        let b = addBox(w, at: Vec2(0, -150 - half), half: Vec2(half, half))
        return (w, b)
    }

    /// The speed the sleep test compares with the threshold: the larger of |v| and |ω| × the farthest
    /// point from the centre (a box's half-diagonal).
    static func sleepMeasure(_ w: World, _ b: BodyID, halfDiagonal: Float) -> Float {
        max(w.linearVelocity(b).length, halfDiagonal * abs(w.angularVelocity(b)))
    }

    /// Steps until the world sleeps; returns the validation problems seen.
    static func runUntilAsleep(_ w: World, limit: Int = 600) -> (asleep: Bool, errors: [String]) {
        for _ in 0..<limit {
            w.step(dt: dt, substeps: 4)
            if !w.validationErrors.isEmpty { return (false, w.validationErrors) }
            if w.awakeBodyCount == 0 { return (true, []) }
        }
        return (false, [])
    }

    @Test func droppedBoxSleepsHalfASecondAfterComingToRest() {
        let (w, b) = Self.dropScene()
        let hd = Self.half * Float(2).squareRoot()
        var lastMoving = 0
        var asleepAt: Int? = nil
        for s in 1...300 {
            w.step(dt: Self.dt, substeps: 4)
            #expect(w.validationErrors.isEmpty, "step \(s): \(w.validationErrors)")
            if w.isAwake(b) && Self.sleepMeasure(w, b, halfDiagonal: hd) > Self.sleepSpeed { lastMoving = s }
            if !w.isAwake(b) { asleepAt = s; break }
        }
        guard let asleepAt else { Issue.record("the box never slept"); return }
        // at rest from step lastMoving + 1; asleep once timeToSleep of rest has accumulated
        let restSteps = asleepAt - lastMoving
        let expected = Int((Self.timeToSleep / Self.dt).rounded(.up))
        #expect(restSteps >= expected - 1 && restSteps <= expected + 1,
                "slept after \(restSteps) steps at rest; timeToSleep is \(expected) steps")
        #expect(w.awakeBodyCount == 0)
        #expect(!w.isAwake(b))
        #expect(w.linearVelocity(b) == .zero && w.angularVelocity(b) == 0)
        // resting on the ground
        #expect(abs(w.position(b).y + Self.half) < 1, "box at y = \(w.position(b).y)")
        // and it stays asleep
        let errors = runValidated(w, steps: 60)
        #expect(errors.isEmpty, "\(errors)")
        #expect(!w.isAwake(b))
    }

    enum Disturbance: String, CaseIterable, CustomTestStringConvertible {
        case force, forceAtPoint, torque, impulse, linearVelocity, angularVelocity, transform, joint, explicitWake
        var testDescription: String { rawValue }
    }

    @Test(arguments: Disturbance.allCases)
    func sleepingBoxWakesWhenDisturbed(_ how: Disturbance) {
        let (w, b) = Self.dropScene()
        let (asleep, errors) = Self.runUntilAsleep(w)
        #expect(errors.isEmpty, "\(errors)")
        #expect(asleep && !w.isAwake(b))
        let p = w.position(b)
        let m = w.mass(b)
        switch how {
        case .force: w.applyForceToCenter(b, Vec2(0, -3000 * m))
        case .forceAtPoint: w.applyForce(b, Vec2(2000 * m, 0), at: p + Vec2(0, -Self.half))
        case .torque: w.applyTorque(b, 100 * w.rotationalInertia(b))
        case .impulse: w.applyLinearImpulse(b, Vec2(0, -200 * m), at: p)
        case .linearVelocity: w.setLinearVelocity(b, Vec2(0, -200))
        case .angularVelocity: w.setAngularVelocity(b, 2)
        case .transform: w.setTransform(b, position: p + Vec2(0, -100), angle: 0.3)
        case .joint:
            var bd = BodyDef()
            bd.type = .static
            let anchor = w.createBody(bd)
            var jd = JointDef(kind: .distance)
            jd.bodyA = anchor; jd.bodyB = b
            jd.localAnchorA = p + Vec2(0, -200)
            jd.length = 180   // shorter than the gap: the joint lifts the box
            w.createJoint(jd)
        case .explicitWake: w.wake(b)
        }
        #expect(w.isAwake(b), "\(how) did not wake the box")
        #expect(w.awakeBodyCount == 1)
        w.step(dt: Self.dt, substeps: 4)
        #expect(w.validationErrors.isEmpty, "\(w.validationErrors)")
        #expect(w.isAwake(b))
        if how != .explicitWake && how != .joint {
            // the disturbance moved it
            #expect(distance(w.position(b), p) > 0.01 || abs(w.angle(b)) > 1e-4, "\(how) left the box where it was")
        }
        do {
            let (again, errors2) = Self.runUntilAsleep(w)
            #expect(errors2.isEmpty, "\(errors2)")
            #expect(again, "after \(how) the box never slept again")
        }
    }

    /// A force applied with `wake: false` to a sleeping body is dropped and the body sleeps on.
    @Test func forceWithoutWakeLeavesASleepingBodyAsleep() {
        let (w, b) = Self.dropScene()
        #expect(Self.runUntilAsleep(w).asleep)
        let p = w.position(b)
        w.applyForceToCenter(b, Vec2(0, -1e6), wake: false)
        w.applyTorque(b, 1e6, wake: false)
        let errors = runValidated(w, steps: 30)
        #expect(errors.isEmpty, "\(errors)")
        #expect(!w.isAwake(b))
        #expect(w.position(b) == p)
    }

    /// A second box dropped onto a sleeping one wakes it on impact; both sleep again later.
    @Test func boxLandingOnASleepingBoxWakesItAndBothSleepAgain() {
        let (w, b) = Self.dropScene()
        #expect(Self.runUntilAsleep(w).asleep)
        let top = addBox(w, at: Vec2(10, -2 * Self.half - 150 - Self.half), half: Vec2(Self.half, Self.half))
        var impactStep: Int? = nil
        for s in 1...120 {
            w.step(dt: Self.dt, substeps: 4)
            #expect(w.validationErrors.isEmpty, "step \(s): \(w.validationErrors)")
            let touching = w.touchingContacts().contains { c in
                let bodies = [w.body(of: c.0), w.body(of: c.1)]
                return bodies.contains(b) && bodies.contains(top)
            }
            if touching && impactStep == nil {
                impactStep = s
                #expect(w.isAwake(b) && w.isAwake(top), "at impact: bottom awake \(w.isAwake(b)), top awake \(w.isAwake(top))")
                #expect(w.awakeBodyCount == 2)
            }
            if impactStep != nil { break }
        }
        #expect(impactStep != nil, "the boxes never touched")
        let (again, errors) = Self.runUntilAsleep(w)
        #expect(errors.isEmpty, "\(errors)")
        #expect(again && !w.isAwake(b) && !w.isAwake(top))
        #expect(abs(w.position(top).y + 3 * Self.half) < 2, "top box at y = \(w.position(top).y)")
    }

    /// Bodies that fell asleep together wake together: touching the bottom of a resting stack wakes
    /// the top.
    @Test func wakingOneBodyWakesItsSleepingIsland() {
        let w = makeWorld(sleep: true, validate: true)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(1000, 50))
        let bottom = addBox(w, at: Vec2(0, -Self.half), half: Vec2(Self.half, Self.half))
        let top = addBox(w, at: Vec2(0, -3 * Self.half), half: Vec2(Self.half, Self.half))
        let loner = addBox(w, at: Vec2(300, -Self.half), half: Vec2(Self.half, Self.half))
        #expect(Self.runUntilAsleep(w).asleep)
        w.applyLinearImpulse(bottom, Vec2(10 * w.mass(bottom), 0), at: w.position(bottom))
        #expect(w.isAwake(bottom) && w.isAwake(top), "the island did not wake as one")
        #expect(!w.isAwake(loner), "a body of another island woke")
        #expect(w.awakeBodyCount == 2)
        let errors = runValidated(w, steps: 5)
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A body with sleep disabled never sleeps while others beside it do; disabling sleep on a
    /// sleeping body wakes it for good.
    @Test func bodyWithSleepDisabledNeverSleeps() {
        let w = makeWorld(sleep: true, validate: true)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(1000, 50))
        var bd = BodyDef()
        bd.position = Vec2(0, -Self.half)
        bd.enableSleep = false
        let insomniac = w.createBody(bd)
        w.createShape(on: insomniac, ShapeDef(), .box(halfWidth: Self.half, halfHeight: Self.half, center: .zero, angle: 0))
        let other = addBox(w, at: Vec2(300, -Self.half), half: Vec2(Self.half, Self.half))
        var otherSlept = false
        for s in 1...180 {
            w.step(dt: Self.dt, substeps: 4)
            #expect(w.validationErrors.isEmpty, "step \(s): \(w.validationErrors)")
            #expect(w.isAwake(insomniac), "step \(s): the body with sleep disabled slept")
            if !w.isAwake(other) { otherSlept = true }
        }
        #expect(otherSlept, "the ordinary box never slept")
        #expect(w.awakeBodyCount == 1)
        w.setSleepEnabled(other, false)
        #expect(w.isAwake(other))
        let errors = runValidated(w, steps: 120)
        #expect(errors.isEmpty, "\(errors)")
        #expect(w.isAwake(other) && w.isAwake(insomniac))
    }

    /// An island sleeps whole or not at all: in a row of five boxes resting side by side on the
    /// floor, the last with sleep disabled, the four that have rested stay awake for as long as
    /// they touch it, however far along the row; once it may sleep too, all five fall asleep in
    /// the same step, as one island (waking the first wakes the last).
    @Test func aRowSleepsOnlyWhenEveryBoxInItHasRested() {
        let w = makeWorld(sleep: true, validate: true)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(1000, 50))
        // 0.5 pt apart: within the speculative distance, so each box touches the next
        let pitch = 2 * Self.half + 0.5
        var row = (0..<4).map { addBox(w, at: Vec2(Float($0) * pitch, -Self.half), half: Vec2(Self.half, Self.half)) }
        var bd = BodyDef()
        bd.position = Vec2(4 * pitch, -Self.half)
        bd.enableSleep = false
        let last = w.createBody(bd)
        w.createShape(on: last, ShapeDef(), .box(halfWidth: Self.half, halfHeight: Self.half, center: .zero, angle: 0))
        row.append(last)
        // three times the time to sleep: the first four rest long enough, yet touch the fifth
        let steps = Int(3 * Self.timeToSleep / Self.dt)
        for s in 1...steps {
            w.step(dt: Self.dt, substeps: 4)
            #expect(w.validationErrors.isEmpty, "step \(s): \(w.validationErrors)")
            #expect(row.allSatisfy { w.isAwake($0) }, "step \(s): part of the row slept")
        }
        let pair = Set([Int(row[3].index), Int(row[4].index)])
        let touches = w.touchingContactColors.contains { Set([$0.bodyA, $0.bodyB]) == pair }
        #expect(touches, "the fourth box does not touch the fifth")
        w.setSleepEnabled(last, true)
        var asleepAt: [Int?] = Array(repeating: nil, count: row.count)
        for s in 1...(steps + 60) {
            w.step(dt: Self.dt, substeps: 4)
            #expect(w.validationErrors.isEmpty, "step \(s): \(w.validationErrors)")
            for (i, b) in row.enumerated() where asleepAt[i] == nil && !w.isAwake(b) { asleepAt[i] = s }
        }
        #expect(asleepAt[0] != nil && asleepAt.allSatisfy { $0 == asleepAt[0] }, "fell asleep at steps \(asleepAt)")
        w.applyLinearImpulse(row[0], Vec2(-w.mass(row[0]), 0), at: w.position(row[0]))
        #expect(row.allSatisfy { w.isAwake($0) }, "the row did not wake as one island")
    }

    enum ForceCase: String, CaseIterable, CustomTestStringConvertible {
        /// Sleep off: the step clears every awake body's forces.
        case sleepOff
        /// Sleep on, and the force makes the body move: it has not rested when the sleep phase reads it.
        case moving
        /// Sleep on, and the force is too weak to end the body's rest: the sleep phase weighs it
        /// with the body's island before it clears it.
        case rested
        var testDescription: String { rawValue }
    }

    /// An applied force acts for the step it was applied in and no longer, whichever way the sleep
    /// phase meets its body. In zero gravity, box A rests 0.5 pt from box B, which may not sleep,
    /// so A stays awake after it has rested. A force F on A for one step of dt gives it
    /// v = F·dt/m; the next step, with no force, keeps v (a force left on A would double it).
    @Test(arguments: ForceCase.allCases)
    func anAppliedForceActsForOneStep(_ c: ForceCase) {
        let w = makeWorld(gravity: .zero, sleep: c != .sleepOff, validate: true)
        let a = addBox(w, at: Vec2(0, 0), half: Vec2(Self.half, Self.half), friction: 0)
        var bd = BodyDef()
        bd.position = Vec2(-(2 * Self.half + 0.5), 0)
        bd.enableSleep = false
        let b = w.createBody(bd)
        var sd = ShapeDef()
        sd.friction = 0
        w.createShape(on: b, sd, .box(halfWidth: Self.half, halfHeight: Self.half, center: .zero, angle: 0))
        let errors = runValidated(w, steps: Int(2 * Self.timeToSleep / Self.dt))
        #expect(errors.isEmpty, "\(errors)")
        #expect(w.isAwake(a) && w.linearVelocity(a) == .zero)
        if c != .sleepOff { #expect(w.sleepTime(a) >= Self.timeToSleep, "A has not rested: \(w.sleepTime(a)) s") }
        // away from B, so the contact does nothing; 50 pt/s is 10 times the sleep speed, 1 pt/s a fifth of it
        let speed: Float = c == .rested ? Self.sleepSpeed / 5 : 10 * Self.sleepSpeed
        let m = w.mass(a)
        w.applyForceToCenter(a, Vec2(speed * m / Self.dt, 0), wake: false)
        w.step(dt: Self.dt, substeps: 4)
        let v1 = w.linearVelocity(a)
        #expect(abs(v1.x - speed) <= 1e-3 * speed && abs(v1.y) <= 1e-4, "after the force: \(v1)")
        if c == .rested { #expect(w.sleepTime(a) >= Self.timeToSleep, "A's rest ended: \(w.sleepTime(a)) s") }
        w.step(dt: Self.dt, substeps: 4)
        let v2 = w.linearVelocity(a)
        #expect(abs(v2.x - v1.x) <= 1e-4 * speed, "the step after: \(v2), was \(v1)")
        #expect(w.validationErrors.isEmpty, "\(w.validationErrors)")
    }
}
