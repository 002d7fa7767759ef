import DynamicsEngine
import Testing

/// The kept constraint graph (Box2D v3's): a contact takes its colour when it begins touching and
/// keeps it until it stops, and no dynamic body ever holds a colour twice — the property that lets
/// a colour be solved in lanes and on several threads at once.
@Suite struct ConstraintGraphTests {
    /// A world under gravity that checks itself after every step (`WorldDef.validate`).
    static func validatedWorld(threads: Int) -> World {
        var d = WorldDef()
        d.gravity = Vec2(0, 1000)
        d.validate = true
        d.workerCount = threads
        return World(def: d)
    }

    /// A settled stack: every touch keeps the colour it began with, step after step (asleep too),
    /// between boxes from the dynamic end (1…20) and against the ground from the static end (2…23).
    @Test func aTouchKeepsItsColourWhileItLasts() {
        let w = makeWorld()
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(400, 50))
        var boxes: [BodyID] = []
        for k in 0..<10 { boxes.append(addBox(w, at: Vec2(0, -15 - 31 * Float(k)), half: Vec2(15, 15))) }
        run(w, steps: 30)
        let first = Dictionary(uniqueKeysWithValues: w.touchingContactColors.map { ($0.slot, $0.color) })
        #expect(first.count == 10)
        let ground = 0   // the ground is the first body created
        for t in w.touchingContactColors {
            if t.bodyA == ground || t.bodyB == ground {
                #expect((2...23).contains(t.color), "ground contact in colour \(t.color)")
            } else {
                #expect((1...20).contains(t.color), "box contact in colour \(t.color)")
            }
        }
        for step in 0..<300 {
            w.step(dt: 1.0 / 60, substeps: 4)
            #expect(w.validationErrors.isEmpty, "step \(step): \(w.validationErrors)")
            for t in w.touchingContactColors {
                #expect(first[t.slot] == t.color, "step \(step): contact \(t.slot) went from \(first[t.slot] ?? -1) to \(t.color)")
            }
        }
        #expect(w.awakeBodyCount == 0, "the stack should have fallen asleep, colours and all")
    }

    /// A heap that churns: bodies removed, turned static and back, made kinematic, put to sleep and
    /// woken, the world snapshotted and restored. After every step each dynamic body marks exactly
    /// the colours its touching contacts hold, each once (`World.validate`), and the run ends bit
    /// for bit alike on one thread and two.
    @Test func theGraphStaysSoundThroughChurn() throws {
        func churn(threads: Int) throws -> UInt64 {
            let w = Self.validatedWorld(threads: threads)
            addBox(w, .static, at: Vec2(0, 50), half: Vec2(300, 50))
            addBox(w, .static, at: Vec2(-320, -200), half: Vec2(20, 300))
            addBox(w, .static, at: Vec2(320, -200), half: Vec2(20, 300))
            var rng = SplitMix64(seed: 27)
            var bodies: [BodyID] = []
            for k in 0..<120 {
                let x = Float(rng.next() % 500) - 250, y = -40 - Float(k) * 9
                if k % 3 == 0 {
                    bodies.append(addCircle(w, at: Vec2(x, y), radius: 6 + Float(rng.next() % 8)))
                } else {
                    let h = Vec2(5 + Float(rng.next() % 12), 4 + Float(rng.next() % 8))
                    bodies.append(addBox(w, at: Vec2(x, y), half: h, angle: Float(rng.next() % 628) / 100))
                }
            }
            for step in 0..<420 {
                switch step {
                case 120: for b in bodies[0..<10] { w.destroyBody(b) }
                case 160: for b in bodies[20..<26] { w.setBodyType(b, .static) }
                case 200: for b in bodies[20..<26] { w.setBodyType(b, .dynamic) }
                case 240: w.setBodyType(bodies[40], .kinematic)
                case 280: w.setBodyType(bodies[40], .dynamic)
                case 320:
                    let snap = w.snapshot()
                    try w.restore(snap)
                default: break
                }
                w.step(dt: 1.0 / 60, substeps: 4)
                #expect(w.validationErrors.isEmpty, "\(threads) threads, step \(step): \(w.validationErrors.prefix(3))")
            }
            #expect(w.touchingContactCount > 100)
            return w.stateHash()
        }
        #expect(try churn(threads: 1) == churn(threads: 2))
    }

    /// Joints keep their colours from step to step only while a fresh choice would make the same
    /// ones (`KeptJointGraph`): `World.validate` chooses them afresh after every step and compares.
    /// Chains hang from pins and pile on a floor (contacts begin and end on jointed bodies), a
    /// joint is made and destroyed, links turn kinematic and static and back, a link is destroyed,
    /// the world is restored, the heap falls asleep and is woken. The colours are kept on most
    /// steps, and the run ends bit for bit alike on one thread and two.
    @Test func jointsKeepTheirColoursOnlyWhileAFreshChoiceAgrees() throws {
        func churn(threads: Int) throws -> (hash: UInt64, kept: Int) {
            let w = Self.validatedWorld(threads: threads)
            addBox(w, .static, at: Vec2(0, 320), half: Vec2(700, 20))
            var chains: [[BodyID]] = []
            for c in 0..<6 {
                chains.append(addChain(w, anchor: Vec2(-450 + Float(c) * 170, -100), links: 14, half: Vec2(15, 4)))
                #expect(w.jointCount == 14 * (c + 1))
            }
            var kept = 0, tie: JointID?
            for step in 0..<900 {
                switch step {
                case 5: w.setBodyType(chains[0][3], .kinematic)   // in the air: no contact to mark anything
                case 10: w.setBodyType(chains[0][3], .dynamic)
                case 60:
                    var jd = JointDef(kind: .distance)
                    jd.bodyA = chains[0][13]; jd.bodyB = chains[1][13]; jd.length = 60
                    tie = w.createJoint(jd)
                case 100: if let tie { w.destroyJoint(tie) }
                case 140: w.setBodyType(chains[2][5], .kinematic)
                case 170: w.setBodyType(chains[2][5], .dynamic)
                case 200: w.setBodyType(chains[4][9], .static)
                case 230: w.setBodyType(chains[4][9], .dynamic)
                case 260: w.destroyBody(chains[3][11])
                case 300: try w.restore(w.snapshot())
                case 800: w.applyLinearImpulse(chains[5][13], Vec2(0, -2000), at: w.position(chains[5][13]))
                default: break
                }
                if w.keepsJointColors { kept += 1 }
                w.step(dt: 1.0 / 60, substeps: 4)
                #expect(w.validationErrors.isEmpty, "\(threads) threads, step \(step): \(w.validationErrors)")
            }
            #expect(w.touchingContactCount > 20, "the chains should lie on the floor")
            return (w.stateHash(), kept)
        }
        let one = try churn(threads: 1), two = try churn(threads: 2)
        #expect(one.hash == two.hash)
        #expect(one.kept == two.kept)
        #expect(one.kept > 300, "steps that kept the joints' colours: \(one.kept) of 900")
    }

    /// Twenty-four boxes resting on one plank: the plank has twenty colours for touches with other
    /// moving bodies, so four of those touches go to the overflow set (solved one by one). When
    /// four boxes that hold colours are removed, the four waiting touches take the freed colours
    /// at the next step instead of staying in the overflow set while they last.
    @Test func anOverflowTouchTakesAColourWhenOneComesFree() {
        let w = makeWorld(sleep: false)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(600, 50))
        addBox(w, at: Vec2(0, -5), half: Vec2(380, 5))
        var boxes: [BodyID] = []
        for k in 0..<24 { boxes.append(addBox(w, at: Vec2(-368 + 32 * Float(k), -21), half: Vec2(10, 10))) }
        run(w, steps: 20)
        let plankIndex = 1   // created second
        func onPlank() -> [(slot: Int, color: Int, bodyA: Int, bodyB: Int)] {
            w.touchingContactColors.filter { t in
                (t.bodyA == plankIndex) != (t.bodyB == plankIndex) && t.bodyA != 0 && t.bodyB != 0
            }
        }
        let before = onPlank()
        #expect(before.count == 24)
        #expect(before.filter { $0.color == 0 }.count == 4, "\(before.map(\.color))")
        let holders = before.filter { $0.color != 0 }.prefix(4).map { $0.bodyA == plankIndex ? $0.bodyB : $0.bodyA }
        for b in boxes where holders.contains(Int(b.index)) { w.destroyBody(b) }
        w.step(dt: 1.0 / 60, substeps: 4)
        let after = onPlank()
        #expect(after.count == 20)
        #expect(after.allSatisfy { $0.color != 0 }, "\(after.map(\.color))")
        #expect(Set(after.map(\.color)).count == 20, "the plank holds each colour once")
        #expect(w.validationErrors.isEmpty, "\(w.validationErrors)")
    }

    /// A snapshot whose graph gives one dynamic body two touching contacts of one colour (they
    /// would be solved at once, racing on the body) is refused, and the world it was to replace
    /// is kept; the forged world's own validation names the fault.
    @Test func aForgedColourIsRefused() throws {
        let w = makeWorld(sleep: false)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(400, 50))
        addBox(w, at: Vec2(-20, -15), half: Vec2(15, 15))
        addBox(w, at: Vec2(20, -15), half: Vec2(15, 15))
        addBox(w, at: Vec2(0, -46), half: Vec2(30, 15))
        run(w, steps: 30)
        let top = 3
        let onTop = w.touchingContactColors.filter { $0.bodyA == top || $0.bodyB == top }
        try #require(onTop.count == 2)
        w.forgeContactColor(slot: onTop[1].slot, onTop[0].color)
        #expect(w.validate().contains { $0.contains("two touching contacts of colour") })
        let forged = w.snapshot()

        let other = makeWorld(sleep: false)
        addBox(other, .static, at: Vec2(0, 50), half: Vec2(400, 50))
        addBox(other, at: Vec2(0, -15), half: Vec2(15, 15))
        run(other, steps: 10)
        let before = other.snapshot()
        #expect(throws: WorldSnapshotError.self) { try other.restore(forged) }
        #expect(other.snapshot() == before)
    }
}
