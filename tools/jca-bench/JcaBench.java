/*
 * JcaBench - the in-JVM baseline for the jca backend (docs/JCA.md).
 *
 * The C driver (jca_bench.c) runs in the same JVM: it calls setup() for one
 * cell (operation, provider, key, input), then alternates run(n) - n
 * operations timed inside the JVM - with its own timed batch of libwebcrypto
 * calls on the same input. once() gives one result for the cross-check that
 * both sides compute the same thing; array() and direct() are what a minimal
 * JNI backend would call per operation (heap arrays filled by the caller, or
 * direct buffers over the caller's memory), to show what bounds the boundary.
 *
 * Cell is the same for webcrypto-bench's jvm targets (docs/BENCHMARKS.md):
 * any of the bench's digest, HMAC and AES operations, timed in here.
 *
 * It also runs alone (main) for a JVM-only figure:
 *   java -cp jca-bench.jar JcaBench [--provider BC] [--sizes 1024,65536]
 */
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

public final class JcaBench {
    private JcaBench() {}

    static final int SHA256 = 0, HMAC = 1, GCM = 2;

    // The current cell. One thread at a time (the driver is single-threaded).
    static int op;
    static byte[] input;
    static byte[] output;
    static byte[] iv = new byte[12];
    static long ivCounter;
    static MessageDigest md;
    static Mac mac;
    static Cipher cipher;
    static SecretKeySpec aesKey;
    static volatile int sink; // keeps results live

    static Provider bc;

    /* The provider a backend variant uses: null is the JVM's order. "BC",
     * when not installed, is made from the class path and used without
     * being added to the JVM's list - as the jca backend does. */
    static Provider provider(String name) throws Exception {
        if (name == null || name.isEmpty()) return null;
        Provider p = Security.getProvider(name);
        if (p == null && name.equals("BC")) {
            if (bc == null)
                bc = (Provider) Class.forName("org.bouncycastle.jce.provider.BouncyCastleProvider")
                        .getDeclaredConstructor().newInstance();
            p = bc;
        }
        if (p == null) throw new IllegalArgumentException("no JCA provider named " + name);
        return p;
    }

    static int opFromName(String name) {
        switch (name) {
            case "SHA-256": return SHA256;
            case "HMAC-SHA-256": return HMAC;
            case "AES-256-GCM": return GCM;
            default: throw new IllegalArgumentException("unknown operation " + name);
        }
    }

    /* Prepares a cell; the objects are made once, as a Java program would.
     * digestProvider: the provider for MessageDigest (SunJCE has none, so a
     * backend variant may take it from elsewhere); macCipherProvider: for Mac
     * and Cipher. */
    public static void setup(String opName, String digestProvider, String macCipherProvider,
                             byte[] key, byte[] in) throws Exception {
        op = opFromName(opName);
        input = in;
        md = null;
        mac = null;
        cipher = null;
        Provider pd = provider(digestProvider), pm = provider(macCipherProvider);
        switch (op) {
            case SHA256:
                md = pd == null ? MessageDigest.getInstance("SHA-256")
                                : MessageDigest.getInstance("SHA-256", pd);
                output = new byte[32];
                break;
            case HMAC:
                mac = pm == null ? Mac.getInstance("HmacSHA256") : Mac.getInstance("HmacSHA256", pm);
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
                output = new byte[32];
                break;
            default:
                cipher = pm == null ? Cipher.getInstance("AES/GCM/NoPadding")
                                    : Cipher.getInstance("AES/GCM/NoPadding", pm);
                aesKey = new SecretKeySpec(key, "AES");
                output = new byte[in.length + 16];
                break;
        }
    }

    /* The provider actually serving the cell (for the report). */
    public static String providerName() {
        if (md != null) return md.getProvider().getName();
        if (mac != null) return mac.getProvider().getName();
        return cipher.getProvider().getName();
    }

    /* The JIT's total compilation time so far (ms; -1 if the JVM does not
     * count it): the driver warms up until it stops growing. */
    public static long jitMillis() {
        CompilationMXBean b = ManagementFactory.getCompilationMXBean();
        return b != null && b.isCompilationTimeMonitoringSupported() ? b.getTotalCompilationTime()
                                                                    : -1;
    }

    /* Collections so far, all collectors. */
    public static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans())
            n += Math.max(0, g.getCollectionCount());
        return n;
    }

    public static String javaVersion() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
    }

    /* The 12-byte GCM IV for counter c: prefix byte, then c big-endian. */
    static void setIv(byte[] dst, int prefix, long c) {
        dst[0] = (byte) prefix;
        for (int i = 0; i < 8; i++) dst[11 - i] = (byte) (c >>> (8 * i));
    }

    /* One operation over input into output; a new IV per call for GCM, as
     * SunJCE refuses to encrypt twice under one key and IV. */
    static int one(byte[] in, int len, byte[] out) throws Exception {
        switch (op) {
            case SHA256:
                md.update(in, 0, len);
                return md.digest(out, 0, 32);
            case HMAC:
                mac.update(in, 0, len);
                mac.doFinal(out, 0);
                return 32;
            default:
                setIv(iv, 0x4a, ivCounter++);
                cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, iv));
                return cipher.doFinal(in, 0, len, out, 0);
        }
    }

    /* n operations in the JVM; returns the elapsed wall-clock nanoseconds
     * (the C driver times the call itself, with its own clock). */
    public static long run(int n) throws Exception {
        final byte[] in = input, out = output;
        int acc = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) acc += one(in, in.length, out) + out[0];
        long t1 = System.nanoTime();
        sink = acc;
        return t1 - t0;
    }

    /* One result for the cross-check: GCM with the IV (prefix, counter). */
    public static byte[] once(int prefix, long counter) throws Exception {
        byte[] out = new byte[output.length];
        if (op == GCM) {
            byte[] v = new byte[12];
            setIv(v, prefix, counter);
            cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, v));
            return cipher.doFinal(input);
        }
        int n = one(input, input.length, out);
        return Arrays.copyOf(out, n);
    }

    /* A minimal copying JNI backend's Java half: the caller has copied len
     * bytes into in (and the IV into ivIn); the result goes to out. */
    public static int array(byte[] in, int len, byte[] out, byte[] ivIn) throws Exception {
        if (op == GCM) {
            cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, ivIn));
            return cipher.doFinal(in, 0, len, out, 0);
        }
        return one(in, len, out);
    }

    /* A zero-copy JNI backend's Java half: in and out are direct buffers over
     * the caller's memory (NewDirectByteBuffer). */
    public static int direct(ByteBuffer in, ByteBuffer out, byte[] ivIn) throws Exception {
        switch (op) {
            case SHA256:
                md.update(in);
                out.put(md.digest());
                return 32;
            case HMAC:
                mac.update(in);
                out.put(mac.doFinal());
                return 32;
            default:
                cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, ivIn));
                return cipher.doFinal(in, out);
        }
    }

    /* ---- webcrypto-bench's jvm targets (tools/bench/bench_jvm.c) ----
     * One Cell per measured cell: the JCA objects a Java program would make
     * once (engine from the target's provider, key spec, parameters), then
     * per operation the calls the jca backend makes for the same WebCrypto
     * call, on the bench's inputs, key and IV. The C side times nothing: it
     * reads what run(n) measured around the JCA calls. */
    public static final int K_DIGEST = 0, K_MAC_SIGN = 1, K_MAC_VERIFY = 2, K_ENCRYPT = 3,
                            K_DECRYPT = 4;

    /* The engine for a kind and JCA algorithm name, with the jca backend's
     * provider rule: digests from the named provider if it has them, else
     * from the JVM's order (SunJCE has none); Mac and Cipher only from the
     * named provider. null provider: the JVM's order. Throws
     * NoSuchAlgorithmException when the provider lacks it. */
    static Object engine(int kind, String alg, String provider) throws Exception {
        Provider p = provider(provider);
        switch (kind) {
            case K_DIGEST:
                if (p != null) {
                    try {
                        return MessageDigest.getInstance(alg, p);
                    } catch (java.security.NoSuchAlgorithmException e) {
                        // as the backend: the default order's
                    }
                }
                return MessageDigest.getInstance(alg);
            case K_MAC_SIGN:
            case K_MAC_VERIFY:
                return p == null ? Mac.getInstance(alg) : Mac.getInstance(alg, p);
            default:
                return p == null ? Cipher.getInstance(alg) : Cipher.getInstance(alg, p);
        }
    }

    /* Whether the provider has the algorithm (a jvm target skips the rest). */
    public static boolean supports(int kind, String alg, String provider) {
        try {
            engine(kind, alg, provider);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /* Whether a provider of that name can be had ("BC" from the class path). */
    public static boolean hasProvider(String name) {
        try {
            return provider(name) != null;
        } catch (Exception e) {
            return false;
        }
    }

    public static Cell cell(int kind, String alg, String provider, byte[] key, byte[] iv,
                            byte[] in) throws Exception {
        return new Cell(kind, alg, provider, key, iv, in);
    }

    public static final class Cell {
        final int kind;
        final MessageDigest md;
        final Mac mac;
        final Cipher cipher;
        final boolean gcm;
        final SecretKeySpec key;
        final java.security.spec.AlgorithmParameterSpec spec, other;
        final byte[] in, out, aux, tmp;
        volatile int sink; // keeps results live

        Cell(int kind, String alg, String provider, byte[] keyBytes, byte[] iv, byte[] input)
                throws Exception {
            this.kind = kind;
            Object e = engine(kind, alg, provider);
            md = e instanceof MessageDigest ? (MessageDigest) e : null;
            mac = e instanceof Mac ? (Mac) e : null;
            cipher = e instanceof Cipher ? (Cipher) e : null;
            in = input;
            gcm = alg.startsWith("AES/GCM"); // and GCM-SIV (BC): GCMParameterSpec too
            if (mac != null) {
                key = new SecretKeySpec(keyBytes, alg);
                mac.init(key); // keyed once: the backend keeps its Mac keyed per key
                tmp = new byte[mac.getMacLength()];
                out = new byte[mac.getMacLength()];
                spec = other = null;
            } else if (cipher != null) {
                key = new SecretKeySpec(keyBytes, "AES");
                byte[] o = iv.clone();
                o[0] ^= 1; // an IV other than the bench's, see one()
                if (gcm) {
                    spec = new GCMParameterSpec(128, iv);
                    other = new GCMParameterSpec(128, o);
                } else {
                    spec = new javax.crypto.spec.IvParameterSpec(iv);
                    other = null;
                }
                out = new byte[input.length + 32];
                tmp = null;
            } else {
                key = null;
                spec = other = null;
                out = new byte[md.getDigestLength()];
                tmp = null;
            }
            // decrypt: the ciphertext; verify: the MAC (made here, untimed)
            if (kind == K_DECRYPT) {
                cipher.init(Cipher.ENCRYPT_MODE, key, spec);
                aux = cipher.doFinal(input);
            } else if (kind == K_MAC_VERIFY) {
                aux = mac.doFinal(input);
            } else {
                aux = null;
            }
        }

        /* One operation; returns the output length. */
        int one() throws Exception {
            switch (kind) {
                case K_DIGEST:
                    md.update(in, 0, in.length);
                    return md.digest(out, 0, out.length);
                case K_MAC_SIGN:
                    mac.update(in, 0, in.length);
                    mac.doFinal(out, 0);
                    return out.length;
                case K_MAC_VERIFY:
                    mac.update(in, 0, in.length);
                    mac.doFinal(tmp, 0);
                    if (!MessageDigest.isEqual(tmp, aux))
                        throw new IllegalStateException("a correct MAC did not verify");
                    out[0] = 1;
                    return 1;
                case K_ENCRYPT:
                    /* The bench encrypts every time under the same key and
                     * IV, which SunJCE and BC refuse on one GCM (GCM-SIV)
                     * engine: as the jca backend does, an init with another
                     * IV goes first, so both sides make the same JCA calls. */
                    if (gcm) cipher.init(Cipher.ENCRYPT_MODE, key, other);
                    cipher.init(Cipher.ENCRYPT_MODE, key, spec);
                    return cipher.doFinal(in, 0, in.length, out, 0);
                default:
                    cipher.init(Cipher.DECRYPT_MODE, key, spec);
                    return cipher.doFinal(aux, 0, aux.length, out, 0);
            }
        }

        /* n operations; the elapsed System.nanoTime (CLOCK_MONOTONIC, the
         * bench's clock) around them. */
        public long run(int n) throws Exception {
            int acc = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) acc += one() + out[0];
            long t1 = System.nanoTime();
            sink = acc;
            return t1 - t0;
        }

        /* The JIT's warm-up, before the bench's own: batches (each at most
         * ~10 ms) until minNanos have passed and minOps operations are done
         * or maxNanos have passed. Returns the operations done. */
        public long warmup(long minOps, long minNanos, long maxNanos) throws Exception {
            long t0 = System.nanoTime(), ops = 0;
            int batch = 1;
            for (;;) {
                long t = run(batch);
                ops += batch;
                long spent = System.nanoTime() - t0;
                if (spent >= minNanos && (ops >= minOps || spent >= maxNanos)) return ops;
                if (t < 10_000_000L && batch < (1 << 24)) batch *= 2;
            }
        }

        /* One output, for the bench's comparison across targets. */
        public byte[] output() throws Exception {
            return Arrays.copyOf(out, one());
        }

        public String provider() {
            if (md != null) return md.getProvider().getName();
            if (mac != null) return mac.getProvider().getName();
            return cipher.getProvider().getName();
        }
    }

    /* Standalone: medians of batches, after warm-up, for each op and size. */
    public static void main(String[] args) throws Exception {
        String prov = null;
        int[] sizes = {1024, 65536, 1 << 20};
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--provider")) prov = args[++i];
            else if (args[i].equals("--sizes"))
                sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
            else throw new IllegalArgumentException("usage: JcaBench [--provider P] [--sizes a,b]");
        }
        byte[] key = new byte[32];
        for (int i = 0; i < 32; i++) key[i] = (byte) (i * 7 + 1);
        System.out.printf("%-14s %9s %12s %10s  %s%n", "op", "size", "median_us", "MB/s", "provider");
        for (String name : new String[] {"SHA-256", "HMAC-SHA-256", "AES-256-GCM"}) {
            for (int size : sizes) {
                byte[] in = new byte[size];
                for (int i = 0; i < size; i++) in[i] = (byte) (i * 31 + 17);
                String dp = "SunJCE".equals(prov) ? null : prov;
                setup(name, dp, prov, key, in);
                long t0 = System.nanoTime();
                int batch = 1;
                while (System.nanoTime() - t0 < 1_000_000_000L) {
                    long t = run(batch);
                    if (t < 2_000_000L) batch *= 2;
                }
                double[] s = new double[31];
                for (int r = 0; r < s.length; r++) s[r] = run(batch) / (double) batch;
                Arrays.sort(s);
                double med = s[s.length / 2];
                System.out.printf("%-14s %9d %12.3f %10.1f  %s%n", name, size, med / 1e3,
                                  size / (med / 1e9) / 1e6, providerName());
            }
        }
    }
}
