import DynamicsEngine
import DynamicsScenes
import Foundation
import Testing

import Dynamics

/// Deterministic replay: the same calls give the same bytes, in one process, whatever the thread
/// count.
@Suite("Deterministic replay")
struct ReplayTests {
    /// A scripted session on the busy scene: items and behaviours added and removed, properties
    /// changed, boundaries moved and velocities given at fixed frames, from the outside and from
    /// inside actions and frame observers. Returns the CSV of every frame.
    static func scriptedSession() -> String {
        let scene = BusyScene(validating: false)
        let animator = scene.animator
        let extra = BasicDynamicItem(center: CGPoint(x: 330, y: 60), size: CGSize(width: 26, height: 18), name: "late")
        let vortex = FieldBehavior.vortexField()
        vortex.position = CGPoint(x: 200, y: 300)
        vortex.strength = 0.2
        vortex.falloff = 1
        // Changes made from a frame observer take effect at the end of that step.
        animator.addFrameObserver { [unowned animator] report in
            switch report.index {
            case 50: animator.addBehavior(vortex)
            case 120: animator.removeBehavior(vortex)
            default: break
            }
        }
        var csv = ""
        for frame in 0..<360 {
            switch frame {
            case 20:
                vortex.addItem(scene.items[0])
                vortex.addItem(extra)
                (animator.behaviors[0] as? GravityBehavior)?.addItem(extra)
                (animator.behaviors[1] as? CollisionBehavior)?.addItem(extra)
            case 90:
                (animator.behaviors[1] as? CollisionBehavior)?.addBoundary(withIdentifier: "ramp", from: CGPoint(x: 250, y: 500), to: CGPoint(x: 400, y: 420))
            case 150:
                scene.items[4].center.x += 15
                animator.updateItem(usingCurrentState: scene.items[4])
                (animator.behaviors[2] as? DynamicItemBehavior)?.addAngularVelocity(3, for: scene.items[5])
            case 200:
                (animator.behaviors[0] as? GravityBehavior)?.angle = 2
                scene.noise.animationSpeed = -1
            case 260:
                (animator.behaviors[1] as? CollisionBehavior)?.removeItem(extra)
                (animator.behaviors[1] as? CollisionBehavior)?.removeBoundary(withIdentifier: "ramp")
            default: break
            }
            if frame % 4 == 0 { animator.advance(by: 0.037) } else { animator.step() }
        }
        csv = scene.csv.text
        return csv
    }

    @Test func theSameSessionGivesTheSameCSVByteForByte() {
        let a = Self.scriptedSession()
        let b = Self.scriptedSession()
        #expect(a.utf8.count > 100_000)
        #expect(a.contains("late"))
        #expect(Array(a.utf8) == Array(b.utf8))
    }

    /// The engine's parallel loops give the same bits as the serial ones: every step's state hash
    /// agrees for 2 and 3 worker threads against 1.
    @Test(arguments: ["tumbler", "compounds", "joint_grid"])
    func resultsDoNotDependOnTheThreadCount(_ name: String) throws {
        let scene = try #require(EngineScenes.named(name))
        let steps = 30
        func hashes(workers: Int) -> [UInt64] {
            let (world, hook) = scene.makeWorld(workers: workers)
            var out: [UInt64] = []
            for s in 0..<steps {
                hook?(world, s)
                world.step(dt: 1.0 / 60, substeps: 4)
                out.append(world.stateHash())
            }
            #expect(world.validate().isEmpty)
            // Enough work for the parallel loops to split (they take ≥ 256 bodies a thread, and a
            // colour's joints split from 64 up).
            #expect(world.awakeBodyCount > 1000 && (world.touchingContactCount > 300 || world.jointCount > 1000),
                    "\(world.awakeBodyCount) awake, \(world.touchingContactCount) touching, \(world.jointCount) joints")
            return out
        }
        let serial = hashes(workers: 1)
        for workers in [2, 3] {
            let parallel = hashes(workers: workers)
            let first = zip(serial, parallel).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "\(name): \(workers) workers diverge from 1 at step \(first ?? -1)")
        }
    }
    /// Through the animator too: its field forces are evaluated on the world's threads between
    /// steps, and its engine steps on them; every step's item hash agrees for 2 and 3 threads
    /// against 1 (ui_fields: three fields over 10 000 items; ui_rain: 2 000 colliding items).
    @Test(arguments: ["ui_fields", "ui_rain"])
    func animatorResultsDoNotDependOnTheThreadCount(_ name: String) throws {
        let scene = try #require(UIKitBenchmarkScenes.scenes.first { $0.name == name })
        let steps = 20
        func hashes(workers: Int) -> [UInt64] {
            let instance = scene.make(workerCount: workers)
            var out: [UInt64] = []
            for s in 0..<steps {
                instance.step(frame: s)
                out.append(instance.stateHash)
            }
            return out
        }
        let serial = hashes(workers: 1)
        #expect(Set(serial).count == steps, "the items moved every step")
        for workers in [2, 3] {
            let parallel = hashes(workers: workers)
            let first = zip(serial, parallel).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "\(name): \(workers) threads diverge from 1 at step \(first ?? -1)")
        }
    }
}
