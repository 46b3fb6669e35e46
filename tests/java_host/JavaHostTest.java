// The Java-hosted test of the jca backend (java_host.c has the native side):
// Java is the host, as in an Android app. It loads the test's JNI library
// with System.loadLibrary (its JNI_OnLoad hands the JavaVM to libwebcrypto),
// loads BouncyCastle only through its own URLClassLoader and hands the
// Provider instance to the variant jca:BCHost, then runs known answers and
// a Wycheproof subset (a) on Java threads, (b) on native threads, (c) on
// native threads that end after one call, (d) all at once under System.gc().
// It ends by returning from main: the JVM must then exit by itself.
//
// Usage: java -Djava.library.path=DIR JavaHostTest BCPROV_JAR|""
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

public final class JavaHostTest {
    static native String onLoadError();
    static native String wycheproofProblem();
    static native int wycheproofCases();
    static native String describe(String backend);
    static native String run(String backend, boolean needSiv, int rounds);
    static native String useProvider(String name, Object provider);
    static native String useProviderUnattached();
    static native long nativeStart(String backend, boolean needSiv, int threads, int rounds);
    static native int nativeAwaitWork(long handle);
    static native String nativeFinish(long handle, int expected);
    static native String shortThreads(String backend, int count, int batch);
    static native String hostAttachedThread(String backend);

    static final String BC_CLASS = "org.bouncycastle.jce.provider.BouncyCastleProvider";
    static final boolean CI = "true".equals(System.getenv("CI"));
    static int checks;

    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAIL: " + what);
            System.out.flush();
            System.exit(1);
        }
        checks++;
        System.out.println("ok: " + what);
    }

    static void none(String failure, String what) {
        check(failure == null, what + (failure == null ? "" : ": " + failure));
    }

    /* A part that cannot run here: visible, and a failure under CI=true. */
    static void skipPart(String why) {
        if (CI) check(false, why + " (CI=true: required)");
        System.out.println("SKIP (part of the test): " + why);
    }

    /* Threads the library attached (it names them "webcrypto-jca"). */
    static int libraryThreads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().equals("webcrypto-jca")) n++;
        return n;
    }

    static int threadsNamed(String name) {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().equals(name)) n++;
        return n;
    }

    /* (b): native threads run the suite; while they wait, still alive, Java
     * sees them attached; once they end, none is left. */
    static String nativeRound(String backend, boolean siv, int threads, int rounds, boolean count) {
        long h = nativeStart(backend, siv, threads, rounds);
        if (h == 0) return "nativeStart failed";
        int n = nativeAwaitWork(h);
        if (count && libraryThreads() < n) {
            nativeFinish(h, threads);
            return "only " + libraryThreads() + " of " + n + " native threads are attached";
        }
        return nativeFinish(h, threads);
    }

    /* Runs each task on its own Java thread; the failures, in order. */
    static List<String> onJavaThreads(List<Runnable> tasks, boolean gc) throws Exception {
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (Runnable r : tasks) {
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } catch (Throwable e) {
                    failures.add(e.toString());
                }
            });
            threads.add(t);
            t.start();
        }
        int gcs = 0;
        boolean alive = true;
        while (gc && alive) {
            System.gc();
            gcs++;
            Thread.sleep(5);
            alive = false;
            for (Thread t : threads) alive |= t.isAlive();
        }
        for (Thread t : threads) t.join();
        if (gc) System.out.println("(System.gc() called " + gcs + " times meanwhile)");
        return new ArrayList<>(failures);
    }

    static Runnable task(ConcurrentLinkedQueue<String> out, java.util.function.Supplier<String> s) {
        return () -> {
            String f = s.get();
            if (f != null) out.add(f);
        };
    }

    public static void main(String[] args) throws Exception {
        String want = System.getenv("WEBCRYPTO_TEST_JAVA_VERSION");
        String version = System.getProperty("java.version");
        System.out.println("Java " + version + " (" + System.getProperty("java.vm.name") + ") at "
                + System.getProperty("java.home") + "; expected Java " + want);
        check(want != null && !want.isEmpty(), "WEBCRYPTO_TEST_JAVA_VERSION is set");
        check(version.equals(want), "the JVM is Java " + want);

        // What an app does: loadLibrary; JNI_OnLoad hands the VM over.
        System.loadLibrary("webcrypto_java_host");
        none(onLoadError(), "JNI_OnLoad: webcrypto_jca_set_java_vm");

        // The class path must not see BouncyCastle: only the test's own loader does.
        String cp = System.getProperty("java.class.path");
        check(!cp.contains("bcprov"), "the class path has no bcprov (" + cp + ")");
        boolean systemSees = true;
        try {
            ClassLoader.getSystemClassLoader().loadClass(BC_CLASS);
        } catch (ClassNotFoundException e) {
            systemSees = false;
        }
        check(!systemSees, "the system class loader cannot load " + BC_CLASS);

        String jar = args.length > 0 ? args[0] : "";
        boolean haveBc = !jar.isEmpty() && new File(jar).canRead();
        Provider bc = null;
        if (haveBc) {
            URLClassLoader loader = new URLClassLoader(new URL[] {new File(jar).toURI().toURL()},
                    JavaHostTest.class.getClassLoader());
            bc = (Provider) loader.loadClass(BC_CLASS).getDeclaredConstructor().newInstance();
            check(bc.getClass().getClassLoader() == loader,
                    "BouncyCastle " + bc.getVersionStr() + " loaded by the test's URLClassLoader only");
            check(useProvider("BCHost", "not a provider").startsWith("TypeError"),
                    "use_provider refuses an object that is not a Provider");
            check(useProviderUnattached().equals("OperationError"),
                    "use_provider refuses a thread not attached to the JVM");
            String r = useProvider("BCHost", bc);
            check(r.equals("OK"), "use_provider(\"BCHost\", the host's BouncyCastle): " + r);
        } else {
            skipPart("no BouncyCastle jar (" + (jar.isEmpty() ? "none given" : jar)
                    + "): jca:BCHost not tested (Debian: apt-get install libbcprov-java)");
        }

        String wp = wycheproofProblem();
        if (wp == null)
            System.out.println("Wycheproof subset: " + wycheproofCases()
                    + " cases (aes_gcm_test.json, and aes_gcm_siv_test.json where the variant has AES-GCM-SIV)");
        else
            skipPart("the Wycheproof subset does not run: " + wp);

        // The backend runs on this JVM (the host's), on the expected Java.
        String d = describe("jca");
        check(d.contains("Java " + want + " (") && d.contains(", host JVM"),
                "jca runs on the host JVM: " + d);
        String dbc = describe("jca:BC");
        check(dbc.startsWith("ERROR NotSupportedError"),
                "jca:BC (found by name, through FindClass) is unavailable, as the class path has no BouncyCastle: "
                        + dbc);

        List<String[]> variants = new ArrayList<>();
        variants.add(new String[] {"jca", "false"});
        if (haveBc) {
            String dh = describe("jca:BCHost");
            check(dh.contains("(the host's instance)"), "jca:BCHost uses the host's Provider: " + dh);
            check(useProvider("BCHost", bc).startsWith("OperationError"),
                    "use_provider refuses a variant that has started");
            variants.add(new String[] {"jca:BCHost", "true"});
        }

        for (String[] v : variants) {
            String name = v[0];
            boolean siv = Boolean.parseBoolean(v[1]);
            // The main thread first: a Java thread inside a native method.
            none(run(name, siv, 1), name + ": known answers and Wycheproof on the main Java thread");

            // (a) Java threads.
            ConcurrentLinkedQueue<String> f = new ConcurrentLinkedQueue<>();
            List<Runnable> tasks = new ArrayList<>();
            for (int i = 0; i < 4; i++) tasks.add(task(f, () -> run(name, siv, 2)));
            List<String> thrown = onJavaThreads(tasks, false);
            f.addAll(thrown);
            none(f.peek(), name + ": (a) 4 Java threads, 2 rounds each");

            // (b) native threads that never touched Java.
            none(nativeRound(name, siv, 4, 2, true),
                    name + ": (b) 4 native threads, attached by the library (seen from Java while they live)");
            check(libraryThreads() == 0,
                    name + ": (b) the native threads were detached at exit (" + libraryThreads()
                            + " webcrypto-jca threads left)");

            // (c) threads that end right after one call.
            none(shortThreads(name, 64, 8), name + ": (c) 64 native threads of one call each");
            check(libraryThreads() == 0,
                    name + ": (c) all were detached at exit (" + libraryThreads() + " left)");
            none(hostAttachedThread(name),
                    name + ": a thread the host attached stays attached until the host detaches it");
            check(threadsNamed("host-attached") == 0, name + ": the host-attached thread is gone");
        }

        // (d) all at once, with the main thread calling System.gc().
        ConcurrentLinkedQueue<String> f = new ConcurrentLinkedQueue<>();
        List<Runnable> tasks = new ArrayList<>();
        for (String[] v : variants) {
            String name = v[0];
            boolean siv = Boolean.parseBoolean(v[1]);
            for (int i = 0; i < 2; i++) tasks.add(task(f, () -> run(name, siv, 2)));
            tasks.add(task(f, () -> nativeRound(name, siv, 3, 2, false)));
            tasks.add(task(f, () -> shortThreads(name, 32, 8)));
        }
        f.addAll(onJavaThreads(tasks, true));
        none(f.peek(), "(d) Java threads, native threads and short-lived threads at once, under System.gc()");
        check(libraryThreads() == 0, "(d) no thread the library attached is left (" + libraryThreads() + ")");

        System.out.println("java_host: all " + checks + " checks passed; main returns, the JVM must exit by itself");
        // No System.exit: a thread left attached, or a non-daemon one, would hang or abort here.
    }
}
