import DynamicsEngine
import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// The scene catalogue's SplitMix64: a fuzz run is reproduced exactly from its seed on every
/// platform.
typealias SplitMix64 = SplitMix64Generator

/// What a fuzz run counted and what went wrong.
final class FuzzLog {
    var operations = 0
    /// Operations run from inside a step's callbacks (actions, delegates, frame observers,
    /// diagnostic handlers, field blocks).
    var callbackOperations = 0
    var steps = 0
    var restores = 0
    var failures: [String] = []
    /// True while the fuzzer itself writes an item (it may write bad values on purpose).
    var userIsWriting = false

    func fail(_ message: String) {
        if failures.count < 20 { failures.append(message) }
    }
}

/// An item that checks every value the animator writes into it: nothing non-finite may arrive.
final class FuzzItem: DynamicItem {
    let log: FuzzLog
    let label: String
    var center: CGPoint {
        didSet {
            if !log.userIsWriting && !(center.x.isFinite && center.y.isFinite) {
                log.fail("the animator wrote a non-finite center \(center) into \(label)")
            }
        }
    }
    var bounds: CGRect
    var transform: CGAffineTransform {
        didSet {
            let t = transform
            if !log.userIsWriting && ![t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite) {
                log.fail("the animator wrote a non-finite transform into \(label)")
            }
        }
    }
    var collisionBoundsType: DynamicItemCollisionBoundsType
    var collisionBoundingPath: BezierPath?

    init(log: FuzzLog, label: String, center: CGPoint, size: CGSize, type: DynamicItemCollisionBoundsType, path: BezierPath?) {
        self.log = log
        self.label = label
        self.center = center
        self.bounds = CGRect(origin: .zero, size: size)
        self.transform = .identity
        self.collisionBoundsType = type
        self.collisionBoundingPath = path
    }
}

/// Hears collisions and pauses and turns each callback into random operations.
final class FuzzDelegate: CollisionBehaviorDelegate, DynamicAnimatorDelegate {
    weak var fuzzer: Fuzzer?
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint) {
        if !(p.x.isFinite && p.y.isFinite) { fuzzer?.log.fail("a began-contact point is not finite: \(p)") }
        fuzzer?.callback()
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem) {
        fuzzer?.callback()
    }
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) {
        if !(p.x.isFinite && p.y.isFinite) { fuzzer?.log.fail("a began-boundary point is not finite: \(p)") }
        fuzzer?.callback()
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: AnyHashable?) {
        fuzzer?.callback()
    }
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { fuzzer?.callback() }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { fuzzer?.callback() }
}

/// Drives animators with random operations — items, groups, every behaviour, boundaries,
/// property changes, velocities, updates, steps, snapshots — with random values that are often bad
/// (NaN, ±infinity, negative, huge, zero), also from inside every kind of callback. After each
/// top-level operation it checks the invariants: the engine's validation walk passes for every
/// world, nothing non-finite was written into an item or a frame report.
final class Fuzzer {
    var rng: SplitMix64
    let log = FuzzLog()
    let animators: [DynamicAnimator]
    var items: [any DynamicItem] = []
    var behaviors: [DynamicBehavior] = []
    var snapshots: [(animator: Int, snapshot: DynamicsSnapshot)] = []
    let delegate = FuzzDelegate()
    let csv = CSVFrameWriter()
    let link = DisplayLink(preferredFramesPerSecond: 60)
    let trace = ProcessInfo.processInfo.environment["DYNAMICS_FUZZ_TRACE"] == "1"
    /// Nesting depth of callbacks running operations.
    private var depth = 0
    private var nextLabel = 0

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        var def = WorldDef.stiffJoints
        def.validate = true
        animators = [DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 600, height: 400), worldDef: def),
                     DynamicAnimator(referenceBounds: nil, worldDef: def)]
        delegate.fuzzer = self
        for (k, animator) in animators.enumerated() {
            animator.delegate = delegate
            animator.addFrameObserver { [unowned self] report in
                for item in report.items {
                    let values = [item.center.x, item.center.y, item.angle, item.velocity.x, item.velocity.y, item.angularVelocity]
                    if !values.allSatisfy(\.isFinite) { log.fail("a frame report of animator \(k) is not finite: \(item)") }
                }
                if k == 0 { csv.write(report) }
                callback()
            }
        }
        link.add(animators[0])
    }

    // MARK: Random values

    func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
    func pick<T>(_ xs: [T]) -> T? { xs.isEmpty ? nil : xs[int(0..<xs.count)] }

    /// A value that makes no sense somewhere: non-finite, negative, huge, zero, tiny.
    func bad() -> CGFloat {
        let values: [CGFloat] = [.nan, .infinity, -.infinity, -1, -1e30, 1e30, 0, -0.0, .greatestFiniteMagnitude,
                                 -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300, 1e8, -1e8]
        return values[int(0..<values.count)]
    }

    /// Mostly a value in `range`; sometimes (`badness`) a bad one.
    func value(_ range: ClosedRange<Double>, badness: Double = 0.1) -> CGFloat {
        chance(badness) ? bad() : CGFloat(Double.random(in: range, using: &rng))
    }

    func point(_ badness: Double = 0.08) -> CGPoint { CGPoint(x: value(-50...650, badness: badness), y: value(-50...450, badness: badness)) }
    func offset() -> CGPoint { CGPoint(x: value(-30...30), y: value(-30...30)) }
    func vector(_ scale: Double = 1) -> CGVector { CGVector(dx: value(-scale...scale), dy: value(-scale...scale)) }

    func path() -> BezierPath? {
        switch int(0..<9) {
        case 0: return nil
        case 1: return BezierPath()
        case 2: return BezierPath(ovalIn: CGRect(x: -10, y: -8, width: 20, height: 16))
        case 3:  // concave
            let p = BezierPath()
            p.move(to: CGPoint(x: -10, y: -10)); p.addLine(to: CGPoint(x: 10, y: -10)); p.addLine(to: CGPoint(x: 0, y: 0))
            p.addLine(to: CGPoint(x: 10, y: 10)); p.addLine(to: CGPoint(x: -10, y: 10)); p.close()
            return p
        case 4:  // self-intersecting bow tie
            let p = BezierPath()
            p.move(to: CGPoint(x: -10, y: -10)); p.addLine(to: CGPoint(x: 10, y: 10)); p.addLine(to: CGPoint(x: 10, y: -10))
            p.addLine(to: CGPoint(x: -10, y: 10)); p.close()
            return p
        case 5:  // collinear: no area
            let p = BezierPath()
            p.move(to: .zero); p.addLine(to: CGPoint(x: 5, y: 5)); p.addLine(to: CGPoint(x: 10, y: 10)); p.close()
            return p
        case 6:  // random points, some bad
            let p = BezierPath()
            p.move(to: offset())
            for _ in 0..<int(1..<7) { p.addQuadCurve(to: offset(), controlPoint: offset()) }
            if chance(0.5) { p.close() }
            return p
        case 7:  // huge
            return BezierPath(rect: CGRect(x: -1e7, y: -1e7, width: 2e7, height: 2e7))
        default:
            return BezierPath(roundedRect: CGRect(x: -12, y: -6, width: 24, height: 12), cornerRadius: value(0...6))
        }
    }

    // MARK: Pools

    func item() -> (any DynamicItem)? { pick(items) }
    func behavior() -> DynamicBehavior? { pick(behaviors) }
    func animator() -> DynamicAnimator { animators[chance(0.85) ? 0 : 1] }

    func newItem() -> any DynamicItem {
        nextLabel += 1
        let types: [DynamicItemCollisionBoundsType] = [.rectangle, .ellipse, .path]
        let size = CGSize(width: value(2...60, badness: 0.07), height: value(2...60, badness: 0.07))
        let type = types[int(0..<3)]
        if chance(0.15) {
            let b = BasicDynamicItem(center: point(0.02), size: size, collisionBoundsType: type, name: chance(0.5) ? "b\(nextLabel)" : nil)
            if type == .path { b.collisionBoundingPath = path() }
            return b
        }
        log.userIsWriting = true
        defer { log.userIsWriting = false }
        return FuzzItem(log: log, label: "i\(nextLabel)", center: point(), size: size, type: type, path: type == .path ? path() : nil)
    }

    func newItems(_ range: Range<Int>) -> [any DynamicItem] {
        (0..<int(range)).compactMap { _ in chance(0.7) ? item() : nil }
    }

    func newBehavior() -> DynamicBehavior {
        let b: DynamicBehavior
        switch int(0..<12) {
        case 0: b = GravityBehavior(items: newItems(0..<5))
        case 1: b = PushBehavior(items: newItems(0..<4), mode: chance(0.5) ? .continuous : .instantaneous)
        case 2:
            guard let i = item() else { return DynamicBehavior() }
            b = SnapBehavior(item: i, snapTo: point())
        case 3, 4:
            guard let a = item(), let c = item() else { return DynamicBehavior() }
            switch int(0..<8) {
            case 0: b = AttachmentBehavior(item: a, attachedToAnchor: point())
            case 1: b = AttachmentBehavior(item: a, offsetFromCenter: offset(), attachedToAnchor: point())
            case 2: b = AttachmentBehavior(item: a, attachedTo: c)
            case 3: b = AttachmentBehavior(item: a, offsetFromCenter: offset(), attachedTo: c, offsetFromCenter: offset())
            case 4: b = AttachmentBehavior.slidingAttachment(with: a, attachedTo: c, attachmentAnchor: point(), axisOfTranslation: vector())
            case 5: b = AttachmentBehavior.slidingAttachment(with: a, attachmentAnchor: point(), axisOfTranslation: vector())
            case 6: b = AttachmentBehavior.limitAttachment(with: a, offsetFromCenter: offset(), attachedTo: c, offsetFromCenter: offset())
            default: b = chance(0.5) ? AttachmentBehavior.fixedAttachment(with: a, attachedTo: c, attachmentAnchor: point())
                                     : AttachmentBehavior.pinAttachment(with: a, attachedTo: c, attachmentAnchor: point())
            }
        case 5, 6:
            let c = CollisionBehavior(items: newItems(0..<8))
            if chance(0.6) { c.translatesReferenceBoundsIntoBoundary = true }
            if chance(0.3) { c.addBoundary(withIdentifier: "floor", from: CGPoint(x: 0, y: 380), to: CGPoint(x: 600, y: 390)) }
            if chance(0.5) { c.collisionDelegate = delegate }
            b = c
        case 7: b = DynamicItemBehavior(items: newItems(0..<5))
        case 8, 9: b = newField()
        case 10:
            b = DynamicBehavior()
            if let child = behavior(), chance(0.5) { b.addChildBehavior(child) }
        default:
            b = FieldBehavior.field { [unowned self] field, position, velocity, mass, charge, dt in
                if !(position.x.isFinite && position.y.isFinite && velocity.dx.isFinite && mass.isFinite && dt.isFinite) {
                    log.fail("a field block got a non-finite argument")
                }
                if chance(0.05) { callback() }
                return chance(0.1) ? CGVector(dx: bad(), dy: bad()) : CGVector(dx: value(-200...200), dy: value(-200...200))
            }
            for i in newItems(0..<4) { (b as! FieldBehavior).addItem(i) }
        }
        if chance(0.3) { b.action = { [unowned self] in callback() } }
        return b
    }

    func newField() -> FieldBehavior {
        let f: FieldBehavior
        switch int(0..<10) {
        case 0: f = .dragField()
        case 1: f = .vortexField()
        case 2: f = .radialGravityField(position: point())
        case 3: f = .linearGravityField(direction: vector())
        case 4: f = .velocityField(direction: vector(100))
        case 5: f = .noiseField(smoothness: value(0...1), animationSpeed: value(0...3))
        case 6: f = .turbulenceField(smoothness: value(0...1), animationSpeed: value(0...3))
        case 7: f = .springField()
        case 8: f = .electricField()
        default: f = .magneticField()
        }
        f.strength = value(-0.5...0.5)
        for i in newItems(0..<5) { f.addItem(i) }
        return f
    }

    // MARK: Operations

    /// Runs one random operation; `insideCallback` leaves out the expensive and re-entrant ones.
    func operation(insideCallback: Bool = false) {
        log.operations += 1
        if insideCallback { log.callbackOperations += 1 }
        var choice = int(0..<(insideCallback ? 26 : 32))
        if insideCallback && choice == 25 && chance(0.5) { choice = 30 }
        if trace { FileHandle.standardError.write(Data("  op kind \(choice)\(insideCallback ? " (callback)" : "")\n".utf8)) }
        switch choice {
        case 0, 1:
            let i = newItem()
            if items.count < 40 { items.append(i) } else { items[int(0..<items.count)] = i }
        case 2:
            let members = newItems(1..<4)
            let g = DynamicItemGroup(items: members)
            if items.count < 40 { items.append(g) } else { items[int(0..<items.count)] = g }
        case 3, 4:
            let b = newBehavior()
            if behaviors.count < 30 { behaviors.append(b) } else { behaviors[int(0..<behaviors.count)] = b }
            if chance(0.7) { animator().addBehavior(b) }
        case 5, 6:
            if let b = behavior() { animator().addBehavior(b) }
        case 7:
            if let b = behavior() { animator().removeBehavior(b) }
        case 8:
            if chance(0.1) { animator().removeAllBehaviors() }
        case 9:
            if let p = behavior(), let c = behavior() {
                if chance(0.5) { p.addChildBehavior(c) } else { p.removeChildBehavior(c) }
            }
        case 10, 11:
            addOrRemoveItem()
        case 12, 13, 14, 15:
            mutateBehavior()
        case 16:
            boundaries()
        case 17, 18:
            updateItem()
        case 19:
            velocity()
        case 20:
            queries()
        case 21:
            let a = animator()
            if chance(0.5) { a.stepDuration = chance(0.7) ? [1.0 / 60, 1.0 / 120, 1.0 / 30][int(0..<3)] : Double(bad()) }
            else { a.substeps = chance(0.7) ? int(1..<9) : [0, -3, 65, Int.max, Int.min][int(0..<5)] }
        case 22:
            if let f = behavior() as? FieldBehavior { f.region = region() }
        case 23:
            if let b = behavior() { b.action = chance(0.5) ? { [unowned self] in callback() } : nil }
        case 24:
            animator().diagnosticHandler = chance(0.3) ? { [unowned self] _ in if chance(0.2) { callback() } } : nil
        case 25:
            // Stepping from a callback is refused; at the top level it is the main event.
            step()
        case 26, 27, 28, 29:
            step()
        case 30:
            if insideCallback { snapshotInsideCallback() } else { snapshotOrRestore() }
        default:
            if chance(0.5) {
                let t = link.timestamp + (chance(0.8) ? Double(value(0...0.1)) : Double(bad()))
                link.tick(at: t)
                log.steps += 1
            } else {
                link.tick()
            }
        }
    }

    func step() {
        let a = animator()
        // Huge durations run 36 000 steps: BadInputTests covers them; here only cheap bad ones.
        let cheapBad: [Double] = [.nan, .infinity, -.infinity, -1, 0, -0.0, .leastNonzeroMagnitude]
        if chance(0.6) { a.step() } else { a.advance(by: chance(0.9) ? Double(value(0...0.1, badness: 0)) : cheapBad[int(0..<cheapBad.count)]) }
        log.steps += 1
    }

    /// Called from every callback: a few operations, at most two levels deep.
    func callback() {
        guard depth < 2, chance(0.3) else { return }
        depth += 1
        defer { depth -= 1 }
        for _ in 0..<int(1..<3) { operation(insideCallback: true) }
    }

    func region() -> Region {
        switch int(0..<6) {
        case 0: return .infinite
        case 1: return Region(radius: value(0...300))
        case 2: return Region(size: CGSize(width: value(0...300), height: value(0...300)))
        case 3: return Region(radius: value(0...200)).inverse()
        case 4: return Region(radius: value(0...200)).byDifference(from: Region(size: CGSize(width: value(0...100), height: value(0...100))))
        default: return Region(radius: value(0...200)).byUnion(with: Region(size: CGSize(width: 50, height: 50))).byIntersection(with: region())
        }
    }

    func addOrRemoveItem() {
        guard let b = behavior(), let i = item() else { return }
        let add = chance(0.6)
        switch b {
        case let g as GravityBehavior: add ? g.addItem(i) : g.removeItem(i)
        case let p as PushBehavior: add ? p.addItem(i) : p.removeItem(i)
        case let c as CollisionBehavior: add ? c.addItem(i) : c.removeItem(i)
        case let d as DynamicItemBehavior: add ? d.addItem(i) : d.removeItem(i)
        case let f as FieldBehavior: add ? f.addItem(i) : f.removeItem(i)
        default: break
        }
    }

    func mutateBehavior() {
        guard let b = behavior() else { return }
        switch b {
        case let g as GravityBehavior:
            switch int(0..<4) {
            case 0: g.gravityDirection = vector()
            case 1: g.angle = value(-7...7)
            case 2: g.magnitude = value(-2...2)
            default: g.setAngle(value(-7...7), magnitude: value(-2...2))
            }
        case let p as PushBehavior:
            switch int(0..<6) {
            case 0: p.pushDirection = vector(0.5)
            case 1: p.angle = value(-7...7)
            case 2: p.magnitude = value(-0.5...0.5)
            case 3: p.active.toggle()
            case 4: if let i = item() { p.setTargetOffsetFromCenter(offset(), for: i) }
            default: p.setAngle(value(-7...7), magnitude: value(-0.5...0.5))
            }
        case let s as SnapBehavior:
            if chance(0.5) { s.snapPoint = point() } else { s.damping = value(0...1) }
        case let a as AttachmentBehavior:
            switch int(0..<6) {
            case 0: a.anchorPoint = point()
            case 1: a.length = value(0...200)
            case 2: a.damping = value(0...2)
            case 3: a.frequency = value(0...10)
            case 4: a.frictionTorque = value(0...2)
            default:
                let lo = value(-100...0), hi = value(0...100)
                if lo <= hi { a.attachmentRange = lo...hi }
            }
        case let c as CollisionBehavior:
            switch int(0..<4) {
            case 0: c.collisionMode = [.items, .boundaries, .everything, []][int(0..<4)]
            case 1: c.translatesReferenceBoundsIntoBoundary.toggle()
            case 2: c.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: value(-20...50), left: value(-20...50), bottom: value(-20...50), right: value(-20...50)))
            default: c.collisionDelegate = chance(0.7) ? delegate : nil
            }
        case let d as DynamicItemBehavior:
            switch int(0..<8) {
            case 0: d.elasticity = value(0...1.2)
            case 1: d.friction = value(0...2)
            case 2: d.density = value(0.1...10)
            case 3: d.resistance = value(0...5)
            case 4: d.angularResistance = value(0...5)
            case 5: d.charge = value(-3...3)
            case 6: d.isAnchored = chance(0.3)
            default: d.allowsRotation = chance(0.7)
            }
        case let f as FieldBehavior:
            switch int(0..<9) {
            case 0: f.position = point()
            case 1: f.strength = value(-1...1)
            case 2: f.falloff = value(-2...3)
            case 3: f.minimumRadius = value(0...50)
            case 4: f.direction = vector(2)
            case 5: f.smoothness = value(-0.5...1.5)
            case 6: f.animationSpeed = value(-3...3)
            case 7: f.seed = UInt64.random(in: 0...UInt64.max, using: &rng)
            default: f.region = region()
            }
        default:
            break
        }
    }

    func boundaries() {
        guard let c = behaviors.compactMap({ $0 as? CollisionBehavior }).randomElement(using: &rng) else { return }
        let id = AnyHashable(int(0..<4))
        switch int(0..<4) {
        case 0: c.addBoundary(withIdentifier: id, from: point(), to: point())
        case 1: if let p = path() { c.addBoundary(withIdentifier: id, for: p.applying(CGAffineTransform(translationX: value(0...600), y: value(0...400)))) }
        case 2: c.removeBoundary(withIdentifier: id)
        default: if chance(0.3) { c.removeAllBoundaries() }
        }
    }

    func updateItem() {
        guard let i = item() else { return }
        log.userIsWriting = true
        switch int(0..<5) {
        case 0: i.center = point()
        case 1: i.transform = CGAffineTransform(rotationAngle: value(-7...7))
        case 2: i.transform = CGAffineTransform(a: bad(), b: bad(), c: 0, d: 1, tx: 0, ty: 0)
        case 3:
            if let f = i as? FuzzItem { f.bounds.size = CGSize(width: value(1...80), height: value(1...80)) }
            if let b = i as? BasicDynamicItem { b.size = CGSize(width: value(1...80), height: value(1...80)) }
        default:
            if let f = i as? FuzzItem { f.collisionBoundingPath = path(); if chance(0.3) { f.collisionBoundsType = .path } }
        }
        log.userIsWriting = false
        animator().updateItem(usingCurrentState: i)
    }

    func velocity() {
        guard let d = behaviors.compactMap({ $0 as? DynamicItemBehavior }).randomElement(using: &rng), let i = item() else { return }
        if chance(0.5) { d.addLinearVelocity(CGPoint(x: value(-500...500), y: value(-500...500)), for: i) }
        else { d.addAngularVelocity(value(-20...20), for: i) }
        let v = d.linearVelocity(for: i), w = d.angularVelocity(for: i)
        if !(v.x.isFinite && v.y.isFinite && w.isFinite) { log.fail("a velocity read back is not finite") }
    }

    func queries() {
        let a = animator()
        switch int(0..<5) {
        case 0: _ = a.items(in: CGRect(x: value(-100...600), y: value(-100...400), width: value(-50...500), height: value(-50...500)))
        case 1:
            var r = ASCIIRenderer(width: int(0..<50), height: int(0..<20))
            r.braille = chance(0.5)
            _ = r.render(a)
        case 2: _ = a.isRunning
        default:
            if let i = item() {
                let probe = DynamicItemBehavior(items: [i])
                _ = probe.linearVelocity(for: i)
            }
        }
    }

    /// From a callback: a snapshot is taken; restoring is refused during a step (some callbacks,
    /// such as a diagnostic handler or a delegate's resume, also run between steps).
    func snapshotInsideCallback() {
        let k = chance(0.85) ? 0 : 1
        let s = animators[k].snapshot()
        snapshots.append((k, s))
        if snapshots.count > 4 { snapshots.removeFirst() }
        do {
            try animators[k].restore(s)
            log.restores += 1
        } catch DynamicsSnapshotError.restoringDuringStep {
        } catch {
            log.fail("restoring a snapshot taken in a callback failed: \(error)")
        }
    }

    func snapshotOrRestore() {
        let k = chance(0.85) ? 0 : 1
        let a = animators[k]
        if chance(0.5) || snapshots.isEmpty {
            let s = a.snapshot()
            // Restoring what was just taken changes nothing (unless a diagnostic handler changed
            // something during the snapshot's synchronisation: then the next snapshot syncs again).
            let settled = !a.needsSync
            do {
                try a.restore(s)
                log.restores += 1
                let again = a.snapshot()
                if settled && again != s { log.fail("restoring a fresh snapshot changed the animator: \(Self.difference(s, again))") }
            } catch {
                log.fail("restoring a fresh snapshot failed: \(error)")
            }
            snapshots.append((k, s))
            if snapshots.count > 4 { snapshots.removeFirst() }
        } else if let (k, s) = pick(snapshots) {
            // An older snapshot fits only while the configuration is unchanged; either way the
            // world must stay valid.
            if (try? animators[k].restore(s)) != nil { log.restores += 1 }
        }
    }

    /// Where two snapshots differ, for failure messages.
    static func difference(_ a: DynamicsSnapshot, _ b: DynamicsSnapshot) -> String {
        if a.configuration != b.configuration { return "configuration \(a.configuration) vs \(b.configuration)" }
        if a.animatorState != b.animatorState {
            let k = zip(a.animatorState, b.animatorState).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            return "animator state at \(k) of \(a.animatorState.count)/\(b.animatorState.count)"
        }
        for (i, (x, y)) in zip(a.behaviorStates, b.behaviorStates).enumerated() where x != y {
            let k = zip(x, y).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            return "behaviour \(i) state at \(k): \(x.map { Double(bitPattern: $0) }) vs \(y.map { Double(bitPattern: $0) })"
        }
        if a.world != b.world { return "world: \(a.world.differences(from: b.world))" }
        return "other fields"
    }

    // MARK: Checks

    func check(after label: String) {
        for (k, a) in animators.enumerated() {
            let problems = a.world.validate() + a.world.validationErrors
            if !problems.isEmpty { log.fail("animator \(k) after \(label): \(problems.prefix(3))") }
        }
    }

    /// Runs `count` top-level operations, checking after each.
    func run(operations count: Int) {
        for n in 0..<count {
            if trace { FileHandle.standardError.write(Data("fuzz op \(n)\n".utf8)) }
            operation()
            check(after: "operation \(n)")
            if !log.failures.isEmpty { break }
        }
    }
}
