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
 * It also runs alone (main) for a JVM-only figure:
 *   java -cp jca-bench.jar JcaBench [--provider BC] [--sizes 1024,65536]
 */
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
