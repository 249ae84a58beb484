/* hal/soft single-texel codecs: every format soft renders to or samples, sRGB and float16.
 *
 * Conversions follow the Vulkan spec chapter "Fixed-Point Data Conversions" and "Floating Point
 * Formats", which WebGPU defers to:
 *   - unorm decode c / (2^b - 1) (an IEEE division, correctly rounded); encode
 *     floor(clamp(x, 0, 1) * (2^b - 1) + 0.5) in float (NaN -> 0);
 *   - snorm decode max(c / (2^(b-1) - 1), -1); encode round-half-away-from-zero of
 *     clamp(x, -1, 1) * (2^(b-1) - 1), so snorm(-x) == -snorm(x) (NaN -> 0);
 *   - uint / sint: raw integers, clamped to the channel's range on encode;
 *   - float16 / uf11 / uf10: IEEE-style, round to nearest even, denormals kept; uf11/uf10 clamp
 *     negatives to 0 and overflow to +inf (Vulkan "Unsigned 11-Bit / 10-Bit Floating-Point");
 *   - rgb9e5: Vulkan "Shared Exponent" decode, and the spec's encode algorithm;
 *   - sRGB: IEC 61966-2-1 EOTF / inverse EOTF. 8-bit decode and encode go through tables made with
 *     60-digit arithmetic, so they are exact (encode = round(oetf(x) * 255), decided by comparing
 *     against the exact half-way thresholds). The float entry points use our own log2/exp2
 *     (no libm: none on bare metal, and libms differ between targets).
 * Multi-byte channels are little endian (the WebGPU linear layout).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_texel.h"

/* ---- tables ---- */

/* 8-bit unorm decode, n / 255.0f folded by the compiler (IEEE division, exact). */
#define U8_1(n) ((float)(n) / 255.0f)
#define U8_4(n) U8_1(n), U8_1((n) + 1), U8_1((n) + 2), U8_1((n) + 3)
#define U8_16(n) U8_4(n), U8_4((n) + 4), U8_4((n) + 8), U8_4((n) + 12)
#define U8_64(n) U8_16(n), U8_16((n) + 16), U8_16((n) + 32), U8_16((n) + 48)
const float eg_soft_unorm8_to_float[256] = { U8_64(0), U8_64(64), U8_64(128), U8_64(192) };
/* RGB565's 5- and 6-bit channels, n / 31.0f and n / 63.0f (also folded exactly): no divide on
 * the Cortex-M7 sampling path. */
#define U5_1(n) ((float)(n) / 31.0f)
#define U5_4(n) U5_1(n), U5_1((n) + 1), U5_1((n) + 2), U5_1((n) + 3)
#define U5_16(n) U5_4(n), U5_4((n) + 4), U5_4((n) + 8), U5_4((n) + 12)
const float eg_soft_unorm5_to_float[32] = { U5_16(0), U5_16(16) };
#define U6_1(n) ((float)(n) / 63.0f)
#define U6_4(n) U6_1(n), U6_1((n) + 1), U6_1((n) + 2), U6_1((n) + 3)
#define U6_16(n) U6_4(n), U6_4((n) + 4), U6_4((n) + 8), U6_4((n) + 12)
const float eg_soft_unorm6_to_float[64] = { U6_16(0), U6_16(16), U6_16(32), U6_16(48) };

/* sRGB EOTF of n / 255, nearest float. Generated (python, decimal module at 60 digits):
 *   s = n/255; l = s/12.92 if s <= 0.04045 else ((s + 0.055)/1.055)**2.4 */
const float eg_soft_srgb8_to_linear[256] = {
    0.000000000e+00f, 3.035269910e-04f, 6.070539821e-04f, 9.105809731e-04f, 1.214107964e-03f, 1.517634955e-03f,
    1.821161946e-03f, 2.124688821e-03f, 2.428215928e-03f, 2.731742803e-03f, 3.035269910e-03f, 3.346535843e-03f,
    3.676507389e-03f, 4.024717025e-03f, 4.391442053e-03f, 4.776953254e-03f, 5.181516521e-03f, 5.605391692e-03f,
    6.048833020e-03f, 6.512090564e-03f, 6.995410193e-03f, 7.499032188e-03f, 8.023193106e-03f, 8.568125777e-03f,
    9.134058841e-03f, 9.721217677e-03f, 1.032982301e-02f, 1.096009370e-02f, 1.161224488e-02f, 1.228648797e-02f,
    1.298303250e-02f, 1.370208338e-02f, 1.444384363e-02f, 1.520851441e-02f, 1.599629410e-02f, 1.680737548e-02f,
    1.764195412e-02f, 1.850022003e-02f, 1.938236132e-02f, 2.028856240e-02f, 2.121900953e-02f, 2.217388526e-02f,
    2.315336652e-02f, 2.415763214e-02f, 2.518685907e-02f, 2.624122240e-02f, 2.732089162e-02f, 2.842603996e-02f,
    2.955683507e-02f, 3.071344458e-02f, 3.189603239e-02f, 3.310476616e-02f, 3.433980793e-02f, 3.560131416e-02f,
    3.688944876e-02f, 3.820437193e-02f, 3.954623640e-02f, 4.091519862e-02f, 4.231141135e-02f, 4.373503104e-02f,
    4.518620297e-02f, 4.666508734e-02f, 4.817182571e-02f, 4.970656708e-02f, 5.126945674e-02f, 5.286064744e-02f,
    5.448027700e-02f, 5.612849072e-02f, 5.780543014e-02f, 5.951123685e-02f, 6.124605238e-02f, 6.301001459e-02f,
    6.480326504e-02f, 6.662593782e-02f, 6.847816706e-02f, 7.036009431e-02f, 7.227185369e-02f, 7.421357185e-02f,
    7.618538290e-02f, 7.818742096e-02f, 8.021982014e-02f, 8.228270710e-02f, 8.437620848e-02f, 8.650045842e-02f,
    8.865558356e-02f, 9.084171057e-02f, 9.305896610e-02f, 9.530746937e-02f, 9.758734703e-02f, 9.989872575e-02f,
    1.022417322e-01f, 1.046164855e-01f, 1.070231050e-01f, 1.094617099e-01f, 1.119324267e-01f, 1.144353747e-01f,
    1.169706658e-01f, 1.195384264e-01f, 1.221387759e-01f, 1.247718185e-01f, 1.274376810e-01f, 1.301364750e-01f,
    1.328683197e-01f, 1.356333345e-01f, 1.384316087e-01f, 1.412632912e-01f, 1.441284716e-01f, 1.470272690e-01f,
    1.499597877e-01f, 1.529261470e-01f, 1.559264660e-01f, 1.589608341e-01f, 1.620293707e-01f, 1.651321948e-01f,
    1.682693958e-01f, 1.714411080e-01f, 1.746474057e-01f, 1.778884232e-01f, 1.811642498e-01f, 1.844749898e-01f,
    1.878207773e-01f, 1.912016869e-01f, 1.946178377e-01f, 1.980693191e-01f, 2.015562505e-01f, 2.050787359e-01f,
    2.086368650e-01f, 2.122307569e-01f, 2.158605009e-01f, 2.195262015e-01f, 2.232279629e-01f, 2.269658744e-01f,
    2.307400554e-01f, 2.345505804e-01f, 2.383975685e-01f, 2.422811240e-01f, 2.462013215e-01f, 2.501582801e-01f,
    2.541520894e-01f, 2.581828535e-01f, 2.622506618e-01f, 2.663556039e-01f, 2.704977989e-01f, 2.746773064e-01f,
    2.788942754e-01f, 2.831487358e-01f, 2.874408364e-01f, 2.917706370e-01f, 2.961382568e-01f, 3.005437851e-01f,
    3.049873114e-01f, 3.094689250e-01f, 3.139887154e-01f, 3.185467720e-01f, 3.231432140e-01f, 3.277781010e-01f,
    3.324515224e-01f, 3.371636271e-01f, 3.419144154e-01f, 3.467040658e-01f, 3.515326083e-01f, 3.564001322e-01f,
    3.613067865e-01f, 3.662526011e-01f, 3.712376952e-01f, 3.762621284e-01f, 3.813260198e-01f, 3.864294291e-01f,
    3.915724754e-01f, 3.967552185e-01f, 4.019777775e-01f, 4.072402120e-01f, 4.125426114e-01f, 4.178850651e-01f,
    4.232676625e-01f, 4.286904931e-01f, 4.341536462e-01f, 4.396571815e-01f, 4.452011883e-01f, 4.507857859e-01f,
    4.564110339e-01f, 4.620769918e-01f, 4.677838087e-01f, 4.735314846e-01f, 4.793201685e-01f, 4.851499498e-01f,
    4.910208583e-01f, 4.969329834e-01f, 5.028864741e-01f, 5.088813305e-01f, 5.149176717e-01f, 5.209955573e-01f,
    5.271151066e-01f, 5.332763791e-01f, 5.394794941e-01f, 5.457244515e-01f, 5.520114303e-01f, 5.583403707e-01f,
    5.647115111e-01f, 5.711248517e-01f, 5.775804520e-01f, 5.840784311e-01f, 5.906188488e-01f, 5.972017646e-01f,
    6.038273573e-01f, 6.104955673e-01f, 6.172065735e-01f, 6.239603758e-01f, 6.307571530e-01f, 6.375968456e-01f,
    6.444796920e-01f, 6.514056325e-01f, 6.583748460e-01f, 6.653872728e-01f, 6.724431515e-01f, 6.795424819e-01f,
    6.866853237e-01f, 6.938717365e-01f, 7.011018991e-01f, 7.083757520e-01f, 7.156934738e-01f, 7.230551243e-01f,
    7.304607630e-01f, 7.379103899e-01f, 7.454041839e-01f, 7.529422045e-01f, 7.605245113e-01f, 7.681511641e-01f,
    7.758222222e-01f, 7.835378051e-01f, 7.912979126e-01f, 7.991027236e-01f, 8.069522381e-01f, 8.148465753e-01f,
    8.227857351e-01f, 8.307698965e-01f, 8.387989998e-01f, 8.468732238e-01f, 8.549926281e-01f, 8.631572127e-01f,
    8.713670969e-01f, 8.796223998e-01f, 8.879231215e-01f, 8.962693810e-01f, 9.046611786e-01f, 9.130986333e-01f,
    9.215818644e-01f, 9.301108718e-01f, 9.386857152e-01f, 9.473065138e-01f, 9.559733272e-01f, 9.646862745e-01f,
    9.734452963e-01f, 9.822505713e-01f, 9.911020994e-01f, 1.000000000e+00f,
};

/* Linear values where the 8-bit sRGB code steps from n to n + 1: the smallest float >=
 * EOTF((n + 0.5) / 255) (same generator). code(l) = number of thresholds <= l. */
static const float srgb8_threshold[255] = {
    1.517634955e-04f, 4.552904866e-04f, 7.588174776e-04f, 1.062344527e-03f, 1.365871518e-03f, 1.669398509e-03f,
    1.972925616e-03f, 2.276452491e-03f, 2.579979366e-03f, 2.883506473e-03f, 3.188301111e-03f, 3.509259550e-03f,
    3.848314984e-03f, 4.205748439e-03f, 4.581832793e-03f, 4.976837430e-03f, 5.391024519e-03f, 5.824651103e-03f,
    6.277969573e-03f, 6.751227658e-03f, 7.244668435e-03f, 7.758530788e-03f, 8.293048479e-03f, 8.848453872e-03f,
    9.424971417e-03f, 1.002282649e-02f, 1.064223703e-02f, 1.128342189e-02f, 1.194659248e-02f, 1.263196021e-02f,
    1.333973184e-02f, 1.407011226e-02f, 1.482330356e-02f, 1.559950318e-02f, 1.639891043e-02f, 1.722171716e-02f,
    1.806811616e-02f, 1.893829554e-02f, 1.983244345e-02f, 2.075074613e-02f, 2.169338427e-02f, 2.266053855e-02f,
    2.365239151e-02f, 2.466911636e-02f, 2.571088821e-02f, 2.677788399e-02f, 2.787027135e-02f, 2.898822166e-02f,
    3.013190255e-02f, 3.130148351e-02f, 3.249712288e-02f, 3.371898830e-02f, 3.496724367e-02f, 3.624204546e-02f,
    3.754355386e-02f, 3.887192905e-02f, 4.022732005e-02f, 4.160989076e-02f, 4.301978648e-02f, 4.445716366e-02f,
    4.592217505e-02f, 4.741496593e-02f, 4.893568903e-02f, 5.048448592e-02f, 5.206150934e-02f, 5.366690084e-02f,
    5.530080199e-02f, 5.696336180e-02f, 5.865471810e-02f, 6.037501246e-02f, 6.212438643e-02f, 6.390297413e-02f,
    6.571091712e-02f, 6.754835695e-02f, 6.941541284e-02f, 7.131224126e-02f, 7.323896140e-02f, 7.519570738e-02f,
    7.718262076e-02f, 7.919982076e-02f, 8.124744892e-02f, 8.332562447e-02f, 8.543448895e-02f, 8.757416159e-02f,
    8.974476904e-02f, 9.194644541e-02f, 9.417930245e-02f, 9.644348174e-02f, 9.873909503e-02f, 1.010662764e-01f,
    1.034251377e-01f, 1.058158055e-01f, 1.082384065e-01f, 1.106930524e-01f, 1.131798699e-01f, 1.156989709e-01f,
    1.182504892e-01f, 1.208345219e-01f, 1.234512031e-01f, 1.261006445e-01f, 1.287829578e-01f, 1.314982623e-01f,
    1.342466772e-01f, 1.370283067e-01f, 1.398432851e-01f, 1.426916867e-01f, 1.455736607e-01f, 1.484893113e-01f,
    1.514387429e-01f, 1.544220597e-01f, 1.574393958e-01f, 1.604908407e-01f, 1.635764986e-01f, 1.666965038e-01f,
    1.698509455e-01f, 1.730399281e-01f, 1.762635708e-01f, 1.795219779e-01f, 1.828152537e-01f, 1.861435026e-01f,
    1.895068437e-01f, 1.929053515e-01f, 1.963391602e-01f, 1.998083591e-01f, 2.033130527e-01f, 2.068533450e-01f,
    2.104293406e-01f, 2.140411437e-01f, 2.176888585e-01f, 2.213725746e-01f, 2.250923961e-01f, 2.288484275e-01f,
    2.326407731e-01f, 2.364695221e-01f, 2.403347790e-01f, 2.442366481e-01f, 2.481752187e-01f, 2.521505952e-01f,
    2.561628520e-01f, 2.602121234e-01f, 2.642984986e-01f, 2.684220374e-01f, 2.725828886e-01f, 2.767811120e-01f,
    2.810168266e-01f, 2.852900922e-01f, 2.896010280e-01f, 2.939497530e-01f, 2.983362973e-01f, 3.027608097e-01f,
    3.072233796e-01f, 3.117240667e-01f, 3.162629604e-01f, 3.208402097e-01f, 3.254558444e-01f, 3.301100135e-01f,
    3.348027468e-01f, 3.395341933e-01f, 3.443043828e-01f, 3.491134644e-01f, 3.539614975e-01f, 3.588485718e-01f,
    3.637748063e-01f, 3.687402308e-01f, 3.737449944e-01f, 3.787891567e-01f, 3.838727772e-01f, 3.889960051e-01f,
    3.941588998e-01f, 3.993615508e-01f, 4.046040177e-01f, 4.098864198e-01f, 4.152088463e-01f, 4.205713570e-01f,
    4.259740710e-01f, 4.314170480e-01f, 4.369003773e-01f, 4.424241185e-01f, 4.479884207e-01f, 4.535933435e-01f,
    4.592389166e-01f, 4.649253190e-01f, 4.706525505e-01f, 4.764207304e-01f, 4.822299480e-01f, 4.880802631e-01f,
    4.939717650e-01f, 4.999045730e-01f, 5.058787465e-01f, 5.118943453e-01f, 5.179514289e-01f, 5.240501761e-01f,
    5.301905870e-01f, 5.363727212e-01f, 5.425967574e-01f, 5.488626957e-01f, 5.551706553e-01f, 5.615206957e-01f,
    5.679129362e-01f, 5.743473768e-01f, 5.808241367e-01f, 5.873433352e-01f, 5.939050317e-01f, 6.005092859e-01f,
    6.071561575e-01f, 6.138457656e-01f, 6.205781698e-01f, 6.273534298e-01f, 6.341716647e-01f, 6.410329342e-01f,
    6.479372978e-01f, 6.548848748e-01f, 6.618756652e-01f, 6.689098477e-01f, 6.759874225e-01f, 6.831084490e-01f,
    6.902731061e-01f, 6.974813938e-01f, 7.047333717e-01f, 7.120291591e-01f, 7.193688750e-01f, 7.267524600e-01f,
    7.341800928e-01f, 7.416518331e-01f, 7.491677403e-01f, 7.567278743e-01f, 7.643322945e-01f, 7.719811797e-01f,
    7.796744704e-01f, 7.874123454e-01f, 7.951948047e-01f, 8.030219078e-01f, 8.108938336e-01f, 8.188105822e-01f,
    8.267722130e-01f, 8.347788453e-01f, 8.428305387e-01f, 8.509272933e-01f, 8.590692878e-01f, 8.672565222e-01f,
    8.754891157e-01f, 8.837671280e-01f, 8.920905590e-01f, 9.004595876e-01f, 9.088742137e-01f, 9.173345566e-01f,
    9.258406758e-01f, 9.343925714e-01f, 9.429904222e-01f, 9.516342282e-01f, 9.603240490e-01f, 9.690600038e-01f,
    9.778421521e-01f, 9.866705537e-01f, 9.955452681e-01f,
};

/* ---- bit helpers ---- */

static inline uint32_t f2u(float f) { union { float f; uint32_t u; } c; c.f = f; return c.u; }
static inline float u2f(uint32_t u) { union { float f; uint32_t u; } c; c.u = u; return c.f; }
static inline uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void wr16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* ---- math without libm (deterministic on every target: plain IEEE float ops, no FMA
 * contraction under -std=c11) ---- */

/* log2 by exponent extraction and the atanh series: m in [sqrt(1/2), sqrt(2)), t = (m-1)/(m+1),
 * ln m = 2 (t + t^3/3 + t^5/5 + t^7/7 + t^9/9); |t| < 0.172 so the error is < 1e-8 relative. */
float eg_soft_log2f(float x)
{
    if (!(x > 0.0f)) return x == 0.0f ? -u2f(0x7F800000u) : u2f(0x7FC00000u);
    if (x == u2f(0x7F800000u)) return x;
    uint32_t b = f2u(x);
    int32_t e = (int32_t)(b >> 23) - 127;
    if ((b >> 23) == 0) {              /* denormal: scale by 2^23 first */
        b = f2u(x * 8388608.0f);
        e = (int32_t)(b >> 23) - 127 - 23;
    }
    float m = u2f((b & 0x007FFFFFu) | 0x3F800000u);
    if (m > 1.41421356f) { m *= 0.5f; e++; }
    float t = (m - 1.0f) / (m + 1.0f), t2 = t * t;
    float s = t * (2.0f + t2 * (2.0f / 3.0f + t2 * (2.0f / 5.0f + t2 * (2.0f / 7.0f + t2 * (2.0f / 9.0f)))));
    return (float)e + s * 1.44269504f;
}

/* 2^y: y = n + f with f in [-0.5, 0.5], e^(f ln 2) by its Taylor series to degree 7. */
float eg_soft_exp2f(float y)
{
    if (y != y) return y;
    if (y >= 128.0f) return u2f(0x7F800000u);
    if (y <= -150.0f) return 0.0f;
    int32_t n = (int32_t)(y >= 0.0f ? y + 0.5f : y - 0.5f);
    float z = (y - (float)n) * 0.693147181f;
    float p = 1.0f + z * (1.0f + z * (0.5f + z * (1.0f / 6.0f + z * (1.0f / 24.0f +
              z * (1.0f / 120.0f + z * (1.0f / 720.0f + z * (1.0f / 5040.0f)))))));
    /* scale in two steps so 2^n never leaves the normal range on its own */
    int32_t n1 = n / 2, n2 = n - n1;
    return p * u2f((uint32_t)(n1 + 127) << 23) * u2f((uint32_t)(n2 + 127) << 23);
}

/* ---- sRGB ---- */

static uint32_t srgb8_encode(float l)
{
    if (!(l > 0.0f)) return 0;         /* also NaN */
    uint32_t lo = 0, hi = 255;         /* answer in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (l >= srgb8_threshold[mid]) lo = mid + 1u; else hi = mid;
    }
    return lo;
}

float eg_soft_srgb_to_linear(float s)
{
    if (!(s > 0.0f)) return 0.0f;
    if (s >= 1.0f) return 1.0f;
    float n = s * 255.0f;
    uint32_t k = (uint32_t)(n + 0.5f);
    if ((float)k == n) return eg_soft_srgb8_to_linear[k];       /* exact for 8-bit inputs */
    if (s <= 0.04045f) return s / 12.92f;
    return eg_soft_exp2f(2.4f * eg_soft_log2f((s + 0.055f) / 1.055f));
}

float eg_soft_linear_to_srgb(float l)
{
    if (!(l > 0.0f)) return 0.0f;
    if (l >= 1.0f) return 1.0f;
    if (l <= 0.0031308f) return l * 12.92f;
    return 1.055f * eg_soft_exp2f(eg_soft_log2f(l) * (1.0f / 2.4f)) - 0.055f;
}

/* ---- small floats ---- */

/* float32 -> unsigned float with `man` mantissa bits and a 5-bit exponent (bias 15), round to
 * nearest even; with sign (float16) when `sign` is set. */
static uint32_t to_small_float(float f, uint32_t man_bits, bool sign)
{
    uint32_t b = f2u(f), s = sign ? (b >> 16) & 0x8000u : 0u;
    uint32_t exp = (b >> 23) & 0xFFu, man = b & 0x7FFFFFu;
    uint32_t inf = 0x1Fu << man_bits, shift = 23u - man_bits;
    if (exp == 0xFFu && man) return s | inf | (1u << (man_bits - 1u));     /* quiet NaN */
    if (!sign && (b >> 31)) return 0;                                       /* negative -> 0 */
    if (exp == 0xFFu) return s | inf;
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 31) return s | inf;
    if (e <= 0) {                      /* denormal result (or zero) */
        if (e < -(int32_t)man_bits) return s;
        man |= 0x800000u;
        shift += (uint32_t)(1 - e);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (h & 1u))) h++;
        return s | h;                  /* a carry into the exponent field is the right answer */
    }
    uint32_t h = ((uint32_t)e << man_bits) | (man >> shift), rem = man & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (h & 1u))) h++;                       /* may round to inf */
    return s | h;
}

static float from_small_float(uint32_t h, uint32_t man_bits, bool sign)
{
    uint32_t s = sign ? (h >> (man_bits + 5u)) & 1u : 0u;
    uint32_t e = (h >> man_bits) & 0x1Fu, m = h & ((1u << man_bits) - 1u);
    uint32_t out;
    if (e == 0x1Fu) {
        out = 0x7F800000u | (m << (23u - man_bits));
    } else if (e) {
        out = ((e - 15u + 127u) << 23) | (m << (23u - man_bits));
    } else if (m == 0) {
        out = 0;
    } else {                           /* denormal: normalise */
        uint32_t k = 0;
        while (!(m & (1u << man_bits))) { m <<= 1; k++; }
        out = ((127u - 14u - k) << 23) | ((m & ((1u << man_bits) - 1u)) << (23u - man_bits));
    }
    return u2f(out | s << 31);
}

uint16_t eg_soft_f32_to_f16(float f) { return (uint16_t)to_small_float(f, 10, true); }
float eg_soft_f16_to_f32(uint16_t h) { return from_small_float(h, 10, true); }

/* Vulkan "Shared Exponent": N = 9 mantissa bits, B = 15, Emax = 31. */
static void rgb9e5_decode(uint32_t v, float out[3])
{
    int32_t e = (int32_t)(v >> 27) - 15 - 9;
    float scale = u2f((uint32_t)(e + 127) << 23);
    for (int i = 0; i < 3; i++) out[i] = (float)((v >> (9 * i)) & 0x1FFu) * scale;
}

static uint32_t rgb9e5_encode(const float in[3])
{
    const float sharedexp_max = 65408.0f;      /* (2^9 - 1) / 2^9 * 2^(31 - 15) */
    float c[3], maxc = 0.0f;
    for (int i = 0; i < 3; i++) {
        float x = in[i];
        c[i] = x > 0.0f ? (x < sharedexp_max ? x : sharedexp_max) : 0.0f;  /* NaN -> 0 */
        if (c[i] > maxc) maxc = c[i];
    }
    /* exp' = max(-B - 1, floor(log2(max))) + 1 + B; floor(log2) is the float exponent */
    int32_t fl = maxc > 0.0f ? (int32_t)((f2u(maxc) >> 23) & 0xFF) - 127 : -127;
    int32_t ep = (fl < -16 ? -16 : fl) + 1 + 15;
    float scale = u2f((uint32_t)(127 - (ep - 15 - 9)) << 23);     /* 2^-(exp' - B - N) */
    uint32_t maxs = (uint32_t)(maxc * scale + 0.5f);
    if (maxs == 512u) { ep++; scale *= 0.5f; }
    uint32_t v = (uint32_t)ep << 27;
    for (int i = 0; i < 3; i++) v |= ((uint32_t)(c[i] * scale + 0.5f) & 0x1FFu) << (9 * i);
    return v;
}

/* ---- channel conversions ---- */

static inline uint32_t unorm_encode(float x, uint32_t max)
{
    if (!(x > 0.0f)) return 0;
    if (x >= 1.0f) return max;
    return (uint32_t)(x * (float)max + 0.5f);
}
static inline float unorm_decode(uint32_t c, uint32_t max) { return (float)c / (float)max; }
static inline uint32_t snorm_encode(float x, int32_t max)      /* two's complement bits */
{
    if (x != x) return 0;
    float v = (x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x) * (float)max;
    return (uint32_t)(v < 0.0f ? -(int32_t)(-v + 0.5f) : (int32_t)(v + 0.5f));
}
static inline float snorm_decode(int32_t c, int32_t max)
{
    float v = (float)c / (float)max;
    return v < -1.0f ? -1.0f : v;
}

/* ---- format layouts ---- */

typedef enum texel_kind {
    K_NONE, K_UNORM, K_SNORM, K_UINT, K_SINT, K_FLOAT, K_SRGB,
    K_RGB10A2_UNORM, K_RGB10A2_UINT, K_RG11B10, K_RGB9E5, K_RGB565
} texel_kind_t;

typedef struct texel_layout {
    uint8_t kind, channels, ch_B;     /* ch_B: bytes per channel of the plain kinds */
    bool bgra;                        /* memory order B, G, R, A */
} texel_layout_t;

static texel_layout_t layout_of(WGPUTextureFormat f)
{
    texel_layout_t l = { K_NONE, 0, 0, false };
#define L(k, n, b) do { l.kind = (k); l.channels = (n); l.ch_B = (b); return l; } while (0)
    switch (f) {
    case WGPUTextureFormat_R8Unorm:       L(K_UNORM, 1, 1);
    case WGPUTextureFormat_R8Snorm:       L(K_SNORM, 1, 1);
    case WGPUTextureFormat_R8Uint:        L(K_UINT, 1, 1);
    case WGPUTextureFormat_R8Sint:        L(K_SINT, 1, 1);
    case WGPUTextureFormat_RG8Unorm:      L(K_UNORM, 2, 1);
    case WGPUTextureFormat_RG8Snorm:      L(K_SNORM, 2, 1);
    case WGPUTextureFormat_RG8Uint:       L(K_UINT, 2, 1);
    case WGPUTextureFormat_RG8Sint:       L(K_SINT, 2, 1);
    case WGPUTextureFormat_RGBA8Unorm:    L(K_UNORM, 4, 1);
    case WGPUTextureFormat_RGBA8UnormSrgb: L(K_SRGB, 4, 1);
    case WGPUTextureFormat_RGBA8Snorm:    L(K_SNORM, 4, 1);
    case WGPUTextureFormat_RGBA8Uint:     L(K_UINT, 4, 1);
    case WGPUTextureFormat_RGBA8Sint:     L(K_SINT, 4, 1);
    case WGPUTextureFormat_BGRA8Unorm:    l.bgra = true; L(K_UNORM, 4, 1);
    case WGPUTextureFormat_BGRA8UnormSrgb: l.bgra = true; L(K_SRGB, 4, 1);
    case WGPUTextureFormat_R16Unorm:      L(K_UNORM, 1, 2);
    case WGPUTextureFormat_R16Snorm:      L(K_SNORM, 1, 2);
    case WGPUTextureFormat_R16Uint:       L(K_UINT, 1, 2);
    case WGPUTextureFormat_R16Sint:       L(K_SINT, 1, 2);
    case WGPUTextureFormat_R16Float:      L(K_FLOAT, 1, 2);
    case WGPUTextureFormat_RG16Unorm:     L(K_UNORM, 2, 2);
    case WGPUTextureFormat_RG16Snorm:     L(K_SNORM, 2, 2);
    case WGPUTextureFormat_RG16Uint:      L(K_UINT, 2, 2);
    case WGPUTextureFormat_RG16Sint:      L(K_SINT, 2, 2);
    case WGPUTextureFormat_RG16Float:     L(K_FLOAT, 2, 2);
    case WGPUTextureFormat_RGBA16Unorm:   L(K_UNORM, 4, 2);
    case WGPUTextureFormat_RGBA16Snorm:   L(K_SNORM, 4, 2);
    case WGPUTextureFormat_RGBA16Uint:    L(K_UINT, 4, 2);
    case WGPUTextureFormat_RGBA16Sint:    L(K_SINT, 4, 2);
    case WGPUTextureFormat_RGBA16Float:   L(K_FLOAT, 4, 2);
    case WGPUTextureFormat_R32Float:      L(K_FLOAT, 1, 4);
    case WGPUTextureFormat_R32Uint:       L(K_UINT, 1, 4);
    case WGPUTextureFormat_R32Sint:       L(K_SINT, 1, 4);
    case WGPUTextureFormat_RG32Float:     L(K_FLOAT, 2, 4);
    case WGPUTextureFormat_RG32Uint:      L(K_UINT, 2, 4);
    case WGPUTextureFormat_RG32Sint:      L(K_SINT, 2, 4);
    case WGPUTextureFormat_RGBA32Float:   L(K_FLOAT, 4, 4);
    case WGPUTextureFormat_RGBA32Uint:    L(K_UINT, 4, 4);
    case WGPUTextureFormat_RGBA32Sint:    L(K_SINT, 4, 4);
    case WGPUTextureFormat_RGB10A2Unorm:  L(K_RGB10A2_UNORM, 4, 4);
    case WGPUTextureFormat_RGB10A2Uint:   L(K_RGB10A2_UINT, 4, 4);
    case WGPUTextureFormat_RG11B10Ufloat: L(K_RG11B10, 3, 4);
    case WGPUTextureFormat_RGB9E5Ufloat:  L(K_RGB9E5, 3, 4);
    /* depth / stencil planes (soft_internal.h: depth24plus* is stored as float32) */
    case WGPUTextureFormat_Depth16Unorm:  L(K_UNORM, 1, 2);
    case WGPUTextureFormat_Depth24Plus:
    case WGPUTextureFormat_Depth24PlusStencil8:
    case WGPUTextureFormat_Depth32Float:
    case WGPUTextureFormat_Depth32FloatStencil8: L(K_FLOAT, 1, 4);
    case WGPUTextureFormat_Stencil8:      L(K_UINT, 1, 1);
    default:
        if (f == EG_FORMAT_RGB565_VALUE) L(K_RGB565, 3, 2);
        return l;
    }
#undef L
}

bool eg_soft_texel_supported(WGPUTextureFormat format) { return layout_of(format).kind != K_NONE; }

/* ---- decode / encode ---- */

static void decode_plain(texel_layout_t l, const uint8_t *src, eg_soft_texel_t *out)
{
    for (uint32_t c = 0; c < l.channels; c++) {
        const uint8_t *p = src + c * l.ch_B;
        uint32_t raw = l.ch_B == 1 ? p[0] : l.ch_B == 2 ? rd16(p) : rd32(p);
        uint32_t bits = l.ch_B * 8u, umax = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
        int32_t sraw = bits == 32 ? (int32_t)raw : (int32_t)(raw << (32u - bits)) >> (32u - bits);
        switch (l.kind) {
        case K_UNORM: out->f[c] = l.ch_B == 1 ? eg_soft_unorm8_to_float[raw] : unorm_decode(raw, umax); break;
        case K_SRGB:  out->f[c] = c == 3 ? eg_soft_unorm8_to_float[raw] : eg_soft_srgb8_to_linear[raw]; break;
        case K_SNORM: out->f[c] = snorm_decode(sraw, (int32_t)(umax >> 1)); break;
        case K_UINT:  out->u[c] = raw; break;
        case K_SINT:  out->i[c] = sraw; break;
        default:      out->f[c] = l.ch_B == 2 ? eg_soft_f16_to_f32((uint16_t)raw) : u2f(raw); break;
        }
    }
    if (l.bgra) { uint32_t t = out->u[0]; out->u[0] = out->u[2]; out->u[2] = t; }
}

void eg_soft_texel_decode(WGPUTextureFormat format, const uint8_t *src, eg_soft_texel_t *out)
{
    texel_layout_t l = layout_of(format);
    bool ints = l.kind == K_UINT || l.kind == K_SINT || l.kind == K_RGB10A2_UINT;
    out->u[0] = out->u[1] = out->u[2] = 0;
    out->u[3] = ints ? 1u : f2u(1.0f);
    uint32_t v = l.ch_B == 4 ? rd32(src) : 0;
    switch (l.kind) {
    case K_NONE: return;
    case K_RGB10A2_UNORM:
        for (uint32_t c = 0; c < 3; c++) out->f[c] = unorm_decode((v >> (10 * c)) & 1023u, 1023);
        out->f[3] = unorm_decode(v >> 30, 3);
        return;
    case K_RGB10A2_UINT:
        for (uint32_t c = 0; c < 3; c++) out->u[c] = (v >> (10 * c)) & 1023u;
        out->u[3] = v >> 30;
        return;
    case K_RG11B10:
        out->f[0] = from_small_float(v & 0x7FFu, 6, false);
        out->f[1] = from_small_float((v >> 11) & 0x7FFu, 6, false);
        out->f[2] = from_small_float(v >> 22, 5, false);
        return;
    case K_RGB9E5: rgb9e5_decode(v, out->f); return;
    case K_RGB565: {
        uint32_t h = rd16(src);
        out->f[0] = eg_soft_unorm5_to_float[h >> 11];
        out->f[1] = eg_soft_unorm6_to_float[(h >> 5) & 63u];
        out->f[2] = eg_soft_unorm5_to_float[h & 31u];
        return;
    }
    default: decode_plain(l, src, out); return;
    }
}

static void encode_plain(texel_layout_t l, const eg_soft_texel_t *in, uint8_t *dst)
{
    for (uint32_t c = 0; c < l.channels; c++) {
        uint32_t sc = l.bgra && c < 3 ? 2u - c : c;          /* source channel */
        uint32_t bits = l.ch_B * 8u, umax = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
        int32_t smax = (int32_t)(umax >> 1);
        uint32_t raw;
        switch (l.kind) {
        case K_UNORM: raw = unorm_encode(in->f[sc], umax); break;
        case K_SRGB:  raw = c == 3 ? unorm_encode(in->f[sc], 255) : srgb8_encode(in->f[sc]); break;
        case K_SNORM: raw = snorm_encode(in->f[sc], smax); break;
        case K_UINT:  raw = in->u[sc] > umax ? umax : in->u[sc]; break;
        case K_SINT: {
            int32_t x = in->i[sc];
            raw = (uint32_t)(x > smax ? smax : x < -smax - 1 ? -smax - 1 : x);
            break;
        }
        default:      raw = l.ch_B == 2 ? eg_soft_f32_to_f16(in->f[sc]) : in->u[sc]; break;
        }
        uint8_t *p = dst + c * l.ch_B;
        if (l.ch_B == 1) p[0] = (uint8_t)raw; else if (l.ch_B == 2) wr16(p, raw); else wr32(p, raw);
    }
}

void eg_soft_texel_encode(WGPUTextureFormat format, const eg_soft_texel_t *in, uint8_t *dst)
{
    texel_layout_t l = layout_of(format);
    switch (l.kind) {
    case K_NONE: return;
    case K_RGB10A2_UNORM:
        wr32(dst, unorm_encode(in->f[0], 1023) | unorm_encode(in->f[1], 1023) << 10 |
                  unorm_encode(in->f[2], 1023) << 20 | unorm_encode(in->f[3], 3) << 30);
        return;
    case K_RGB10A2_UINT:
        wr32(dst, eg_min_u32(in->u[0], 1023) | eg_min_u32(in->u[1], 1023) << 10 |
                  eg_min_u32(in->u[2], 1023) << 20 | eg_min_u32(in->u[3], 3) << 30);
        return;
    case K_RG11B10:
        wr32(dst, to_small_float(in->f[0], 6, false) | to_small_float(in->f[1], 6, false) << 11 |
                  to_small_float(in->f[2], 5, false) << 22);
        return;
    case K_RGB9E5: wr32(dst, rgb9e5_encode(in->f)); return;
    case K_RGB565:
        wr16(dst, unorm_encode(in->f[0], 31) << 11 | unorm_encode(in->f[1], 63) << 5 |
                  unorm_encode(in->f[2], 31));
        return;
    default: encode_plain(l, in, dst); return;
    }
}

#endif /* EMGPU_HAL_SOFT */
